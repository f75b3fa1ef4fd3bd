! Formatted read from standard input with I, F and A edit descriptors, an implied-do read into an
! array, and iostat= reporting end of file on a read past the last line.
! stdin: 00042 -3.25
! stdin: 1 2 3 4 5
! stdin: hello
program formatted_read_stdin
  implicit none
  integer :: k, v(5), i, ios, nfail
  real(8) :: x
  character(len=8) :: word
  nfail = 0
  read(*, '(I5, F6.2)') k, x
  read(*, *) (v(i), i = 1, 5)
  read(*, '(A)') word
  read(*, *, iostat=ios) i
  if (k /= 42 .or. x /= -3.25d0) nfail = nfail + 1
  if (any(v /= [1, 2, 3, 4, 5])) nfail = nfail + 1
  if (word /= 'hello') nfail = nfail + 1
  if (ios >= 0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, k, x, v, word, ios
  call exit(nfail)
end program formatted_read_stdin
