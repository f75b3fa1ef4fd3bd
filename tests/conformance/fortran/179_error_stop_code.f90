! expect: exit 7
! `error stop 7` ends the program with exit status 7 (gfortran prints "ERROR STOP 7" on stderr),
! reached after a failed check inside a loop.
program error_stop_code
  implicit none
  integer :: i, s
  s = 0
  do i = 1, 10
    s = s + i
    if (s > 20) error stop 7
  end do
  print *, 'FAIL the loop finished', s
end program error_stop_code
