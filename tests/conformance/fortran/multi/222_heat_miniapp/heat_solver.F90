! The solver of multi/222: module arrays on the device from init to finish (enter/exit data), one
! explicit step per call with a max reduction of the change.
module heat_solver
  use config_mod
  implicit none
  real(8), allocatable :: temperature(:, :), next_t(:, :)
contains
  subroutine solver_init(cfg)
    type(config), intent(in) :: cfg
    allocate(temperature(0:cfg%nx + 1, 0:cfg%ny + 1), next_t(0:cfg%nx + 1, 0:cfg%ny + 1))
    temperature = 0.0d0
    temperature(0, :) = 1.0d0
    next_t = temperature
!$acc enter data copyin(temperature, next_t)
  end subroutine solver_init
  real(8) function solver_step(cfg) result(change)
    type(config), intent(in) :: cfg
    integer :: i, j, nx, ny
    real(8) :: alpha
    nx = cfg%nx
    ny = cfg%ny
    alpha = cfg%alpha
    change = 0.0d0
!$acc parallel loop collapse(2) present(temperature, next_t) reduction(max:change)
    do j = 1, ny
      do i = 1, nx
        next_t(i, j) = temperature(i, j) + alpha * (temperature(i - 1, j) + temperature(i + 1, j) &
                       + temperature(i, j - 1) + temperature(i, j + 1) - 4.0d0 * temperature(i, j))
        change = max(change, abs(next_t(i, j) - temperature(i, j)))
      end do
    end do
!$acc parallel loop collapse(2) present(temperature, next_t)
    do j = 1, ny
      do i = 1, nx
        temperature(i, j) = next_t(i, j)
      end do
    end do
  end function solver_step
  subroutine solver_finish()
!$acc exit data copyout(temperature) delete(next_t)
  end subroutine solver_finish
end module heat_solver
