! expect: compile-error "nosuch_loop" 9:22
! exit naming a construct that does not enclose the statement is reported at the name.
program exit_unknown_name
  implicit none
  integer :: i, s
  s = 0
  outer: do i = 1, 10
    s = s + i
    if (s > 20) exit nosuch_loop
  end do outer
  print *, s
end program exit_unknown_name
