! expect: exit 3
! `stop 3` ends the program with exit status 3 (gfortran also prints "STOP 3" on stderr); it is
! reached from inside a called subroutine, so nothing after the call runs.
program stop_code
  implicit none
  integer :: k
  k = 0
  call finish(k)
  print *, 'FAIL after the stopping call'
  call exit(1)
contains
  subroutine finish(v)
    integer, intent(inout) :: v
    v = v + 3
    if (v == 3) stop 3
    print *, 'FAIL wrong value', v
  end subroutine finish
end program stop_code
