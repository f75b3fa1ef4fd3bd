! expect: compile-error "end do" 11:1
! A DO construct left open: the END PROGRAM statement that arrives while the loop is open is
! reported at its first token.
program missing_end_do
  implicit none
  integer :: i, s
  s = 0
  do i = 1, 10
    s = s + i
  print *, s
end program missing_end_do
