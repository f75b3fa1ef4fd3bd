! !$acc routine seq in module procedures (in their own specification part), one calling another,
! used from a kernels loop and a parallel loop through use association.
module kernels_math
  implicit none
contains
  real(8) function sq(x)
!$acc routine seq
    real(8), intent(in) :: x
    sq = x * x
  end function sq
  real(8) function dist(x, y)
!$acc routine seq
    real(8), intent(in) :: x, y
    dist = sqrt(sq(x) + sq(y))
  end function dist
end module kernels_math

program routine_module
  use kernels_math
  implicit none
  integer, parameter :: n = 2500
  real(8) :: x(n), y(n), d(n)
  integer :: i, nfail
  nfail = 0
  x = [(cos(0.01d0 * i), i = 1, n)]
  y = [(sin(0.01d0 * i) * 2.0d0, i = 1, n)]
!$acc parallel loop copyin(x, y) copyout(d)
  do i = 1, n
    d(i) = dist(x(i), y(i))
  end do
!$acc kernels loop copy(d)
  do i = 1, n
    d(i) = d(i) + sq(d(i))
  end do
  do i = 1, n
    if (abs(d(i) - (sqrt(x(i)**2 + y(i)**2) + x(i)**2 + y(i)**2)) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program routine_module
