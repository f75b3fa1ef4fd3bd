! Assumed-shape dummies a(:,:) and b(:) used in compute regions of a module subroutine, called with
! whole arrays and with contiguous and strided sections (a strided actual is copied in and out).
module axpy_mod
  implicit none
contains
  subroutine axpy(alpha, x, y)
    real(8), intent(in) :: alpha
    real(8), intent(in) :: x(:)
    real(8), intent(inout) :: y(:)
    integer :: i
!$acc parallel loop copyin(x) copy(y)
    do i = 1, size(y)
      y(i) = y(i) + alpha * x(i)
    end do
  end subroutine axpy
  subroutine scale2d(a, f)
    real(8), intent(inout) :: a(:, :)
    real(8), intent(in) :: f
    integer :: i, j
!$acc parallel loop collapse(2) copy(a)
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        a(i, j) = a(i, j) * f + i
      end do
    end do
  end subroutine scale2d
end module axpy_mod

program assumed_shape_in_regions
  use axpy_mod
  implicit none
  real(8) :: x(100), y(100), m(10, 8)
  integer :: i, nfail
  nfail = 0
  x = [(dble(i), i = 1, 100)]
  y = 1.0d0
  call axpy(2.0d0, x, y)
  if (any(y /= 1.0d0 + 2.0d0 * x)) nfail = nfail + 1
  y = 0.0d0
  call axpy(1.0d0, x(1:50), y(51:100))
  if (any(y(51:100) /= x(1:50)) .or. any(y(1:50) /= 0.0d0)) nfail = nfail + 1
  y = 0.0d0
  call axpy(1.0d0, x(1:100:2), y(2:100:2))
  if (any(y(2:100:2) /= x(1:100:2)) .or. any(y(1:99:2) /= 0.0d0)) nfail = nfail + 1
  m = 1.0d0
  call scale2d(m(3:7, 2:5), 3.0d0)
  if (m(3, 2) /= 4.0d0 .or. m(7, 5) /= 8.0d0 .or. m(2, 2) /= 1.0d0 .or. m(3, 6) /= 1.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program assumed_shape_in_regions
