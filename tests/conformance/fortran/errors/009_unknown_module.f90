! expect: compile-error "nosuch_module" 4:7
! use of a module that is neither in the program's files nor built in is reported at its name.
program unknown_module
  use nosuch_module
  implicit none
  print *, 1
end program unknown_module
