! Formatted output with the common edit descriptors: I (with width and zero-fill Iw.m), F, E, ES,
! A, L, X, /, repeat counts, a format in a string variable and a FORMAT statement with a label;
! the exact bytes are in 067_formatted_output.stdout.
program formatted_output
  implicit none
  integer :: i, nfail
  real(8) :: x
  character(len=20) :: fmt
  nfail = 0
  x = 3.14159265358979d0
  write(*, '(I5)') 42
  write(*, '(I5.3, 1X, I0)') 7, -1234
  write(*, '(F10.4)') x
  write(*, '(F8.2, F8.2)') -x, 100.0d0 / 3
  write(*, '(E12.4)') 12345.678d0
  write(*, '(ES12.4)') 0.00012345d0
  write(*, '(A, A5, A)') '[', 'ab', ']'
  write(*, '(L2, 1X, L1)') .true., .false.
  write(*, '(3I4)') (i * i, i = 1, 3)
  write(*, '(2(I3, ":"), I3)') 1, 2, 3
  write(*, '(A/A)') 'line1', 'line2'
  fmt = '(A, I3.3, F6.1)'
  write(*, fmt) 'v', 5, 2.25d0
  write(*, 100) 9, 0.5d0
100 format('i=', I2, ' x=', F5.2)
  print '(A,I0)', 'count=', 12
  if (nfail /= 0) print *, 'FAIL'
  call exit(nfail)
end program formatted_output
