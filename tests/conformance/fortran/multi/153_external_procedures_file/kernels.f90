! External procedures of multi/153.
subroutine scale_matrix(a, b, n, m, f)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m), f
  real(8), intent(out) :: b(n, m)
  integer :: i, j
!$acc parallel loop collapse(2) copyin(a) copyout(b)
  do j = 1, m
    do i = 1, n
      b(i, j) = f * a(i, j)
    end do
  end do
end subroutine scale_matrix

real(8) function frobenius(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(n, m)
  real(8) :: s
  integer :: i, j
  s = 0.0d0
!$acc parallel loop collapse(2) copyin(a) reduction(+:s)
  do j = 1, m
    do i = 1, n
      s = s + a(i, j) * a(i, j)
    end do
  end do
  frobenius = sqrt(s)
end function frobenius
