! expect: compile-error "cycle" 7:14
! cycle outside any DO loop is reported at the cycle statement.
program cycle_outside_loop
  implicit none
  integer :: s
  s = 1
  if (s > 0) cycle
  print *, s
end program cycle_outside_loop
