! Named constants: parameter attribute and PARAMETER statement, constant expressions using other
! constants and intrinsics, array-valued parameters, and a parameter as an array bound.
program parameters
  implicit none
  integer, parameter :: n = 12, m = 2 * n + 1
  real(8), parameter :: pi = 4.0d0 * atan(1.0d0), two_pi = 2 * pi
  integer, parameter :: primes(5) = [2, 3, 5, 7, 11]
  integer, parameter :: lo = -3, hi = lo + 10
  real(8) :: grid(lo:hi)
  integer :: k
  integer :: nfail
  real :: r
  parameter (r = 0.25)
  nfail = 0
  if (m /= 25) nfail = nfail + 1
  if (abs(two_pi - 6.283185307179586d0) > 1.0d-14) nfail = nfail + 1
  if (sum(primes) /= 28 .or. primes(4) /= 7) nfail = nfail + 1
  if (size(grid) /= 11 .or. lbound(grid, 1) /= -3 .or. ubound(grid, 1) /= 7) nfail = nfail + 1
  do k = lo, hi
    grid(k) = k * r
  end do
  if (grid(hi) /= 1.75d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program parameters
