! Array constructors: (/ ... /) and [ ... ], implied do with a step, nested implied do, mixed
! values and implied do, a typed constructor [real(8) :: ...], and a constructor in an expression.
program array_constructors
  implicit none
  integer :: a(5), b(10), c(7), i, j, nfail
  real(8) :: d(4)
  nfail = 0
  a = (/ 1, 2, 3, 4, 5 /)
  if (sum(a) /= 15) nfail = nfail + 1
  b = [(2 * i, i = 1, 10)]
  if (b(10) /= 20 .or. b(1) /= 2) nfail = nfail + 1
  c = [0, (i, i = 10, 2, -4), 99, (i * i, i = 1, 2)]
  if (any(c /= [0, 10, 6, 2, 99, 1, 4])) then
    nfail = nfail + 1
    print *, 'FAIL c', c
  end if
  b = [((i * 10 + j, j = 1, 2), i = 1, 5)]
  if (b(1) /= 11 .or. b(2) /= 12 .or. b(3) /= 21 .or. b(10) /= 52) nfail = nfail + 1
  d = [real(8) :: 1, 2.5, 3, 4.5d0]
  if (sum(d) /= 11.0d0) nfail = nfail + 1
  if (dot_product([1, 2, 3], [4, 5, 6]) /= 32) nfail = nfail + 1
  if (size([(i, i = 1, 0)]) /= 0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program array_constructors
