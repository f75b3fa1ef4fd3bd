! expect: compile-error "nosuch_proc" 6:15
! routine(name) naming a procedure that is not visible is reported at the name.
program routine_unknown_name
  implicit none
  integer :: i
!$acc routine(nosuch_proc) seq
  i = 1
  print *, i
end program routine_unknown_name
