! DATA statements: scalars, whole arrays with repeat counts, array elements, an implied-do list,
! and character data.
program data_statements
  implicit none
  integer :: a, b, v(6), w(5), i, nfail
  real(8) :: x(4)
  character(len=5) :: word
  data a, b /3, 4/
  data v /3*1, 3*2/
  data x /1.0d0, 2*0.5d0, 4.0d0/
  data (w(i), i = 1, 5) /10, 20, 30, 40, 50/
  data word /'abcde'/
  nfail = 0
  if (a /= 3 .or. b /= 4) nfail = nfail + 1
  if (any(v /= [1, 1, 1, 2, 2, 2])) nfail = nfail + 1
  if (sum(x) /= 6.0d0 .or. x(3) /= 0.5d0) nfail = nfail + 1
  if (sum(w) /= 150 .or. w(4) /= 40) nfail = nfail + 1
  if (word /= 'abcde') nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program data_statements
