! real(4), complex(8) and logical arrays in compute regions: single-precision arithmetic with a
! tolerance, complex products, and logical masks written and counted on the device.
program real4_complex_logical_regions
  implicit none
  integer, parameter :: n = 3000
  real(4) :: s(n), t(n)
  complex(8) :: z(n), w(n)
  logical :: mask(n)
  integer :: i, cnt, nfail
  nfail = 0
  s = [(real(i) * 0.001, i = 1, n)]
  z = [(cmplx(dble(i), -dble(i) / 2, kind=8), i = 1, n)]
  cnt = 0
!$acc parallel loop copyin(s, z) copyout(t, w, mask) reduction(+:cnt)
  do i = 1, n
    t(i) = s(i) * s(i) + 0.5
    w(i) = z(i) * conjg(z(i)) + (0.0d0, 1.0d0) * z(i)
    mask(i) = t(i) > 2.0
    if (mask(i)) cnt = cnt + 1
  end do
  do i = 1, n
    if (abs(t(i) - (s(i) * s(i) + 0.5)) > 1.0e-6 * t(i)) nfail = nfail + 1
    if (abs(w(i) - (abs(z(i))**2 + (0.0d0, 1.0d0) * z(i))) > 1.0d-9 * abs(w(i))) nfail = nfail + 1
    if (mask(i) .neqv. (t(i) > 2.0)) nfail = nfail + 1
  end do
  if (cnt /= count(mask)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, cnt
  call exit(nfail)
end program real4_complex_logical_regions
