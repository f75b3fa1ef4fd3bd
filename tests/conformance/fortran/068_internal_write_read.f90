! Formatted and list-directed I/O on internal files (character variables): the program checks the
! exact characters written by I, F, E, A and L edit descriptors, then reads numbers back.
program internal_write_read
  implicit none
  character(len=32) :: buf
  integer :: i, j, nfail
  real(8) :: x
  nfail = 0
  write(buf, '(I6)') 1234
  if (buf /= '  1234') then
    nfail = nfail + 1
    print *, 'FAIL I6 [', buf, ']'
  end if
  write(buf, '(I0)') -56
  if (trim(buf) /= '-56') nfail = nfail + 1
  write(buf, '(F8.3)') 2.5d0
  if (buf /= '   2.500') then
    nfail = nfail + 1
    print *, 'FAIL F8.3 [', buf, ']'
  end if
  write(buf, '(F6.2)') -0.125d0
  if (buf /= ' -0.13' .and. buf /= ' -0.12') nfail = nfail + 1
  write(buf, '(E11.3)') 1234.5d0
  if (buf /= '  0.123E+04') then
    nfail = nfail + 1
    print *, 'FAIL E11.3 [', buf, ']'
  end if
  write(buf, '(A, "-", L1, I2.2)') 'ab', .true., 7
  if (buf /= 'ab-T07') nfail = nfail + 1
  buf = '  17   -3  2.75'
  read(buf, *) i, j, x
  if (i /= 17 .or. j /= -3 .or. x /= 2.75d0) nfail = nfail + 1
  read(buf, '(I4, I5)') i, j
  if (i /= 17 .or. j /= -3) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program internal_write_read
