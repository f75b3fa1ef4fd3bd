! expect: compile-error "undeclared_thing" 7:3
! Under implicit none, assigning to a name that was never declared is an error at that name.
program undeclared_variable
  implicit none
  integer :: n
  n = 3
  undeclared_thing = n + 1
  print *, n
end program undeclared_variable
