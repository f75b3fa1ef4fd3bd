! expect: exit 0
! `stop 'message'` ends the program with exit status 0 (gfortran prints "STOP message" on stderr);
! code after it does not run, so the program's exit status is not the call exit(1) below.
program stop_message
  implicit none
  integer :: k
  k = 3
  if (k == 3) stop 'all checks done'
  print *, 'FAIL after stop'
  call exit(1)
end program stop_message
