! Integer arithmetic: division truncates toward zero for every sign, ** with integer exponents
! (including negative bases and a zero exponent), operator precedence (** right-associative,
! unary minus below **), and 8-byte integers beyond the 4-byte range.
program integer_arithmetic
  implicit none
  integer :: nfail, i
  integer(8) :: p
  nfail = 0
  if (7 / 2 /= 3 .or. -7 / 2 /= -3 .or. 7 / (-2) /= -3 .or. (-7) / (-2) /= 3) nfail = nfail + 1
  if (2**3**2 /= 512) nfail = nfail + 1
  if (-2**2 /= -4) nfail = nfail + 1
  if ((-2)**2 /= 4 .or. (-3)**3 /= -27 .or. 5**0 /= 1) nfail = nfail + 1
  if (2 + 3 * 4 - 6 / 2 /= 11) nfail = nfail + 1
  if (2.0d0**(-2) /= 0.25d0) nfail = nfail + 1
  p = 1
  do i = 1, 20
    p = p * 3
  end do
  if (p /= 3486784401_8) nfail = nfail + 1
  if (p / 1000000000_8 /= 3_8) nfail = nfail + 1
  if (mod(p, 7_8) /= mod(3486784401_8, 7_8)) nfail = nfail + 1
  if (huge(i) + 0_8 + 1_8 /= 2147483648_8) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program integer_arithmetic
