! The solver module of multi/152: uses grid and computes on its arrays in a parallel loop.
module solver
  use grid
  implicit none
contains
  subroutine relax(r)
    real(8), intent(out) :: r(:)
    integer :: i
!$acc parallel loop copyin(xs) copyout(r(1:npts))
    do i = 1, npts
      r(i) = 2.0d0 * xs(i) * xs(i)
    end do
  end subroutine relax
end module solver
