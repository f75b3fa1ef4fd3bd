! Elemental math intrinsics in real(8) and real(4): abs sqrt exp log log10 sin cos tan asin acos atan
! atan2 sinh cosh tanh, checked against identities (not constants) at several points.
program math_intrinsics
  implicit none
  real(8) :: x, pi
  real(4) :: xs
  integer :: i, nfail
  nfail = 0
  pi = acos(-1.0d0)
  do i = 1, 9
    x = 0.1d0 * i
    if (abs(sin(x)**2 + cos(x)**2 - 1.0d0) > 1.0d-15) nfail = nfail + 1
    if (abs(tan(x) - sin(x) / cos(x)) > 1.0d-15) nfail = nfail + 1
    if (abs(exp(log(x)) - x) > 1.0d-15) nfail = nfail + 1
    if (abs(log10(x) - log(x) / log(10.0d0)) > 1.0d-15) nfail = nfail + 1
    if (abs(sqrt(x) * sqrt(x) - x) > 1.0d-15) nfail = nfail + 1
    if (abs(asin(sin(x)) - x) > 1.0d-14 .or. abs(acos(cos(x)) - x) > 1.0d-14) nfail = nfail + 1
    if (abs(atan(tan(x)) - x) > 1.0d-14) nfail = nfail + 1
    if (abs(cosh(x)**2 - sinh(x)**2 - 1.0d0) > 1.0d-14) nfail = nfail + 1
    if (abs(tanh(x) - sinh(x) / cosh(x)) > 1.0d-15) nfail = nfail + 1
    xs = real(x)
    if (abs(sin(xs)**2 + cos(xs)**2 - 1.0) > 1.0e-6) nfail = nfail + 1
    if (abs(exp(xs) - real(exp(x))) > 1.0e-6 * exp(xs)) nfail = nfail + 1
  end do
  if (abs(atan2(1.0d0, -1.0d0) - 0.75d0 * pi) > 1.0d-15) nfail = nfail + 1
  if (abs(atan2(-1.0d0, -1.0d0) + 0.75d0 * pi) > 1.0d-15) nfail = nfail + 1
  if (abs(-3.5d0) /= 3.5d0 .or. abs(-7) /= 7 .or. abs(-2.5) /= 2.5) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program math_intrinsics
