! The configuration of multi/222: a derived type with its defaults and a constructor function.
module config_mod
  implicit none
  type :: config
    integer :: nx = 0, ny = 0
    integer :: max_steps = 60
    real(8) :: alpha = 0.2d0
    real(8) :: tol = 1.0d-4
  end type config
contains
  function make_config(nx, ny) result(c)
    integer, intent(in) :: nx, ny
    type(config) :: c
    c%nx = nx
    c%ny = ny
  end function make_config
end module config_mod
