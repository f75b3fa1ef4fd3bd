! The module of multi/151: a parameter and a routine seq function used in the main's kernels.
module physics
  implicit none
  real(8), parameter :: gravity = 9.81d0
contains
  real(8) function fall_distance(t)
!$acc routine seq
    real(8), intent(in) :: t
    fall_distance = 0.5d0 * gravity * t * t
  end function fall_distance
end module physics
