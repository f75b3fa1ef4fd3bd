! A plain `stop` ends the program with status 0 and prints nothing; code after it does not run.
program stop_plain
  implicit none
  integer :: i, s
  s = 0
  do i = 1, 10
    s = s + i
  end do
  if (s /= 55) then
    print *, 'FAIL sum', s
    call exit(1)
  end if
  stop
  print *, 'FAIL after stop'
  call exit(2)
end program stop_plain
