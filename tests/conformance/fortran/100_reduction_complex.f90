! reduction(+:) and reduction(*:) on complex(8) variables: the sum of roots of unity times
! weights and a product of unit-modulus factors.
program reduction_complex
  implicit none
  integer, parameter :: n = 720
  complex(8) :: s, p, want_s, want_p
  real(8) :: pi
  integer :: k, nfail
  nfail = 0
  pi = acos(-1.0d0)
  s = (0.0d0, 0.0d0)
  p = (1.0d0, 0.0d0)
!$acc parallel loop reduction(+:s) reduction(*:p)
  do k = 1, n
    s = s + k * exp(cmplx(0.0d0, 2 * pi * k / n, kind=8))
    if (mod(k, 90) == 0) then
      p = p * (0.0d0, 1.0d0)
    end if
  end do
  want_s = (0.0d0, 0.0d0)
  want_p = (1.0d0, 0.0d0)
  do k = 1, n
    want_s = want_s + k * exp(cmplx(0.0d0, 2 * pi * k / n, kind=8))
    if (mod(k, 90) == 0) want_p = want_p * (0.0d0, 1.0d0)
  end do
  if (abs(s - want_s) > 1.0d-9) nfail = nfail + 1
  if (abs(p - want_p) > 1.0d-14 .or. abs(p - (1.0d0, 0.0d0)) > 1.0d-14) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, s, want_s, p
  call exit(nfail)
end program reduction_complex
