! reduction(+:) on integer, integer(8), real(4) and real(8) variables in one loop, and on a
! variable with an initial value (the reduction adds to it).
program reduction_plus
  implicit none
  integer, parameter :: n = 100000
  integer :: i, si, nfail
  integer(8) :: sl
  real(4) :: sf
  real(8) :: sd, want
  nfail = 0
  si = 5
  sl = 0
  sf = 0.0
  sd = 0.0d0
!$acc parallel loop reduction(+:si, sl, sf) reduction(+:sd)
  do i = 1, n
    si = si + mod(i, 7)
    sl = sl + int(i, 8) * i
    sf = sf + 1.0 / real(i)
    sd = sd + 1.0d0 / dble(i)**2
  end do
  want = 0.0d0
  do i = 1, n
    want = want + 1.0d0 / dble(i)**2
  end do
  if (si /= 5 + sum([(mod(i, 7), i = 1, n)])) nfail = nfail + 1
  if (sl /= int(n, 8) * (n + 1) * (2 * n + 1) / 6) nfail = nfail + 1
  if (abs(sf - real(log(dble(n)) + 0.5772156649d0)) > 1.0e-3) nfail = nfail + 1
  if (abs(sd - want) > 1.0d-12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, si, sl, sf, sd
  call exit(nfail)
end program reduction_plus
