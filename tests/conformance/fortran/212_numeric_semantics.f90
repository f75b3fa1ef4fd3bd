! Numeric semantics compilers get wrong: a real literal without a kind is single precision (1.1 is
! not 1.1d0 when stored in real(8)), mixed-kind promotion, integer ** negative integer, comparisons
! of integers with reals, operator precedence of .not./.and./.or./.eqv., and unary minus.
program numeric_semantics
  implicit none
  real(8) :: d
  real(4) :: s
  integer :: i, k, nfail
  logical :: a, b, c
  nfail = 0
  d = 1.1
  if (d == 1.1d0) nfail = nfail + 1
  if (d /= real(1.1, 8)) nfail = nfail + 1
  if (abs(d - 1.1d0) > 1.0d-7 .or. abs(d - 1.1d0) < 1.0d-9) nfail = nfail + 1
  s = 0.1
  d = s * 3.0d0
  if (d /= real(0.1, 8) * 3.0d0) nfail = nfail + 1
  d = 1.0d0 / 3 + 1 / 3
  if (d /= 1.0d0 / 3.0d0) nfail = nfail + 1
  if (2**(-1) /= 0 .or. (-1)**(-3) /= -1 .or. 1**(-5) /= 1 .or. (-2)**(-1) /= 0) nfail = nfail + 1
  if (2.0**(-2) /= 0.25 .or. 4.0d0**0.5d0 /= 2.0d0) nfail = nfail + 1
  i = 2
  if (.not. (i == 2.0) .or. i == 2.5 .or. .not. (i < 2.5d0)) nfail = nfail + 1
  k = -i**2
  if (k /= -4) nfail = nfail + 1
  k = 10 - 2 - 3
  if (k /= 5 .or. 2 * 3 / 4 /= 1 .or. 2 * (3 / 4) /= 0) nfail = nfail + 1
  a = .true.
  b = .false.
  c = .false.
  if (.not. a .and. b .or. c) nfail = nfail + 1
  if (.not. (a .or. b .and. c)) nfail = nfail + 1
  if (.not. (b .eqv. c .and. b)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program numeric_semantics
