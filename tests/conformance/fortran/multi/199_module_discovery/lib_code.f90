! Module kernels_lib of multi/199, in a file whose name is not the module's (found by content).
module kernels_lib
  use constants
  implicit none
contains
  subroutine apply_scale(v)
    real(8), intent(inout) :: v(:)
    integer :: i
!$acc parallel loop copy(v)
    do i = 1, size(v)
      v(i) = v(i) * scale
    end do
  end subroutine apply_scale
end module kernels_lib
