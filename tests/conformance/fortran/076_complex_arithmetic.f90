! complex and complex(8): literals, cmplx with kind, real/aimag/conjg/abs, arithmetic including
! division, exp/sqrt of complex, and complex arrays with sum.
program complex_arithmetic
  implicit none
  complex(8) :: z, w, v(8)
  complex :: c4
  integer :: k, nfail
  real(8) :: pi
  nfail = 0
  pi = acos(-1.0d0)
  z = (3.0d0, 4.0d0)
  w = cmplx(1.0d0, -2.0d0, kind=8)
  if (abs(z) /= 5.0d0 .or. real(z) /= 3.0d0 .or. aimag(z) /= 4.0d0) nfail = nfail + 1
  if (conjg(z) /= (3.0d0, -4.0d0)) nfail = nfail + 1
  if (z * w /= (11.0d0, -2.0d0)) nfail = nfail + 1
  if (abs(z / w - (-1.0d0, 2.0d0)) > 1.0d-15) nfail = nfail + 1
  if (abs(exp((0.0d0, 1.0d0) * pi) + 1.0d0) > 1.0d-15) nfail = nfail + 1
  if (abs(sqrt((-4.0d0, 0.0d0)) - (0.0d0, 2.0d0)) > 1.0d-15) nfail = nfail + 1
  do k = 1, 8
    v(k) = exp(cmplx(0.0d0, 2 * pi * k / 8, kind=8))
  end do
  if (abs(sum(v)) > 1.0d-14) nfail = nfail + 1
  c4 = (1.0, 1.0)
  c4 = c4 * c4
  if (c4 /= (0.0, 2.0)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program complex_arithmetic
