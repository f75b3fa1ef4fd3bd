! expect: compile-error "intent" 12:5
! Assigning to an intent(in) dummy is an error at the assigned name.
program assign_intent_in
  implicit none
  integer :: x
  x = 1
  call change(x)
  print *, x
contains
  subroutine change(v)
    integer, intent(in) :: v
    v = 2
  end subroutine change
end program assign_intent_in
