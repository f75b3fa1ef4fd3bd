! command_argument_count and get_command_argument as a program run without arguments sees them:
! no arguments, argument 0 is the program's name (non-blank, its length reported), status 0.
program command_arguments
  implicit none
  character(len=256) :: name
  integer :: n, length, stat, nfail
  nfail = 0
  n = command_argument_count()
  if (n /= 0) nfail = nfail + 1
  call get_command_argument(0, name, length, stat)
  if (len_trim(name) == 0 .or. length /= len_trim(name) .or. stat /= 0) nfail = nfail + 1
  call get_command_argument(1, name, length, stat)
  if (stat == 0 .or. len_trim(name) /= 0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, n, length, stat
  call exit(nfail)
end program command_arguments
