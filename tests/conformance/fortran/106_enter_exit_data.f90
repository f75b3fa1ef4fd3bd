! Unstructured data: enter data copyin/create, kernels using the data through present, exit data
! copyout/delete, across subroutine calls (the lifetime is not tied to a scope).
program enter_exit_data
  implicit none
  integer, parameter :: n = 5000
  real(8), allocatable :: a(:), b(:)
  integer :: i, nfail
  nfail = 0
  allocate(a(n), b(n))
  a = [(dble(i) * 0.1d0, i = 1, n)]
  call setup(a, b, n)
  call compute(a, b, n)
  call finish(a, b, n)
  do i = 1, n
    if (abs(b(i) - (a(i) * a(i) + 1.0d0)) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine setup(x, y, m)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8), intent(inout) :: y(m)
!$acc enter data copyin(x) create(y)
  end subroutine setup
  subroutine compute(x, y, m)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8), intent(inout) :: y(m)
    integer :: k
!$acc parallel loop present(x, y)
    do k = 1, m
      y(k) = x(k) * x(k) + 1.0d0
    end do
  end subroutine compute
  subroutine finish(x, y, m)
    integer, intent(in) :: m
    real(8), intent(in) :: x(m)
    real(8), intent(inout) :: y(m)
!$acc exit data copyout(y) delete(x)
  end subroutine finish
end program enter_exit_data
