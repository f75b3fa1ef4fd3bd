! expect: compile-error "argument" 8:8
! A call of a contained subroutine with more arguments than it has dummies is reported at the
! callee's name.
program wrong_argument_count
  implicit none
  integer :: x
  x = 1
  call bump(x, 2)
  print *, x
contains
  subroutine bump(v)
    integer, intent(inout) :: v
    v = v + 1
  end subroutine bump
end program wrong_argument_count
