! Whole-array assignment and expressions: a = b + 2*c, scalar broadcast, elemental intrinsics on
! arrays, overlapping section assignment a(2:n) = a(1:n-1) (the right side is evaluated first),
! and 2-D array expressions.
program whole_array_expressions
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), b(n), c(n), save_a(n), m(4, 5), k(4, 5)
  integer :: i, nfail
  nfail = 0
  b = [(dble(i), i = 1, n)]
  c = [(0.5d0 * i, i = 1, n)]
  a = b + 2 * c
  do i = 1, n
    if (a(i) /= b(i) + 2 * c(i)) nfail = nfail + 1
  end do
  a = 3.0d0
  if (any(a /= 3.0d0)) nfail = nfail + 1
  a = sqrt(b) * c - 1
  if (abs(a(16) - (4.0d0 * 8.0d0 - 1)) > 1.0d-13) nfail = nfail + 1
  a = b
  save_a = a
  a(2:n) = a(1:n - 1)
  if (a(1) /= save_a(1) .or. any(a(2:n) /= save_a(1:n - 1))) nfail = nfail + 1
  a(1:n - 1) = a(2:n)
  if (any(a(1:n - 1) /= save_a(1:n - 1))) nfail = nfail + 1
  m = 1.0d0
  k = reshape([(dble(i), i = 1, 20)], [4, 5])
  m = m + k * k
  if (m(4, 5) /= 401.0d0 .or. m(1, 2) /= 26.0d0) nfail = nfail + 1
  where (k > 10.0d0)
    m = 0.0d0
  elsewhere
    m = -m
  end where
  if (count(m == 0.0d0) /= 10 .or. m(2, 1) /= -5.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program whole_array_expressions
