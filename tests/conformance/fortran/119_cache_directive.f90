! The cache directive at the top of a loop body with an array section around the loop index
! (a 1-D stencil reading a(i-1:i+1)); results are those of the plain loop.
program cache_directive
  implicit none
  integer, parameter :: n = 4000
  real(8) :: a(0:n + 1), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(sin(0.003d0 * i), i = 0, n + 1)]
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, n
!$acc cache(a(i-1:i+1))
    b(i) = 0.25d0 * a(i - 1) + 0.5d0 * a(i) + 0.25d0 * a(i + 1)
  end do
  do i = 1, n
    if (abs(b(i) - (0.25d0 * a(i - 1) + 0.5d0 * a(i) + 0.25d0 * a(i + 1))) > 1.0d-15) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program cache_directive
