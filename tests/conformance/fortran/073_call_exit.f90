! expect: exit 5
! `call exit(n)` (the GNU extension every OpenACC suite uses) ends the program with status n; the
! value is computed at run time.
program call_exit_status
  implicit none
  integer :: i, code
  code = 0
  do i = 1, 5
    code = code + 1
  end do
  call exit(code)
  print *, 'FAIL after exit'
end program call_exit_status
