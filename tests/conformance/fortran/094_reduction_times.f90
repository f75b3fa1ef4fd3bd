! reduction(*:) on real(8) and integer(8) products whose factors are chosen so the exact result
! is known: a product of (1 + 1/k^2)-like terms and of small integers.
program reduction_times
  implicit none
  integer, parameter :: n = 60
  integer :: i, nfail
  integer(8) :: p, want_p
  real(8) :: q, want_q
  nfail = 0
  p = 1
  q = 1.0d0
!$acc parallel loop reduction(*:p, q)
  do i = 1, n
    if (mod(i, 10) == 0) then
      p = p * 2
    else
      p = p * 1
    end if
    q = q * (1.0d0 + 1.0d0 / (i * (i + 2.0d0)))
  end do
  want_p = 1
  want_q = 1.0d0
  do i = 1, n
    if (mod(i, 10) == 0) want_p = want_p * 2
    want_q = want_q * (1.0d0 + 1.0d0 / (i * (i + 2.0d0)))
  end do
  if (p /= want_p .or. p /= 64) nfail = nfail + 1
  if (abs(q - want_q) > 1.0d-12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, p, q, want_q
  call exit(nfail)
end program reduction_times
