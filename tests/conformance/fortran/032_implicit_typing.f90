! Default implicit typing (no implicit none): names starting with i-n are integer, others real;
! an implicit double precision statement for d-f; integer division follows the implied types.
program implicit_typing
  implicit double precision (d-f)
  nfail = 0
  k = 7
  x = 7
  half_k = k / 2
  half_x = x / 2
  dval = 1.0d0 / 3.0d0
  if (half_k /= 3.0) nfail = nfail + 1
  if (half_x /= 3.5) nfail = nfail + 1
  if (kind(x) /= kind(1.0)) nfail = nfail + 1
  if (kind(dval) /= kind(1.0d0)) nfail = nfail + 1
  if (abs(dval - 1.0d0 / 3.0d0) > 1.0d-15) nfail = nfail + 1
  m = 2.9
  if (m /= 2) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, half_k, half_x, m
  call exit(nfail)
end program implicit_typing
