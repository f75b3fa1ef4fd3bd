! The helper module of multi/168.
module helpers
  implicit none
  integer, parameter :: nweights = 100
  real(8) :: weights(nweights)
!$acc declare create(weights)
contains
  real(8) function smooth_step(x)
!$acc routine seq
    real(8), intent(in) :: x
    smooth_step = x * x * (3.0d0 - 2.0d0 * x)
  end function smooth_step
  subroutine load_weights()
    integer :: k
    weights = [(1.0d0 / k, k = 1, nweights)]
!$acc update device(weights)
  end subroutine load_weights
  real(8) function weighted_sum()
    integer :: k
    real(8) :: s
    s = 0.0d0
!$acc parallel loop present(weights) reduction(+:s)
    do k = 1, nweights
      s = s + weights(k) * k
    end do
    weighted_sum = s
  end function weighted_sum
end module helpers
