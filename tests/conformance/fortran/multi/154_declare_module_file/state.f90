! The module of multi/154: global arrays with declare create and a subroutine using them.
module state
  implicit none
  integer, parameter :: nstate = 2048
  real(8) :: u(nstate), v(nstate)
!$acc declare create(u, v)
contains
  subroutine advance(dt)
    real(8), intent(in) :: dt
    integer :: i
!$acc parallel loop present(u, v)
    do i = 1, nstate
      v(i) = dt * u(i) + 1.0d0
    end do
  end subroutine advance
end module state
