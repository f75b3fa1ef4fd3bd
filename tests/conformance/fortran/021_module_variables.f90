! A module with parameters, variables and an initialised variable; the program and a procedure
! use it and see the same module variables.
module grid_config
  implicit none
  integer, parameter :: nx = 40, ny = 30
  real(8), parameter :: dx = 1.0d0 / nx
  integer :: calls = 0
  real(8) :: field(nx, ny)
end module grid_config

program module_variables
  use grid_config
  implicit none
  integer :: i, j, nfail
  nfail = 0
  call fill()
  call fill()
  if (calls /= 2) then
    nfail = nfail + 1
    print *, 'FAIL calls', calls
  end if
  do j = 1, ny
    do i = 1, nx
      if (field(i, j) /= i * dx + j) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program module_variables

subroutine fill()
  use grid_config
  implicit none
  integer :: i, j
  calls = calls + 1
  do j = 1, ny
    do i = 1, nx
      field(i, j) = i * dx + j
    end do
  end do
end subroutine fill
