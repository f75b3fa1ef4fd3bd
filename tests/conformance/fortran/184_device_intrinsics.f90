! Elemental intrinsics evaluated in device code (a parallel loop) equal the host's: mod, modulo,
! sign, abs, nint, int, floor, ceiling, max, min, iand, ieor, ishft, btest, sqrt, exp, log, sin,
! cos, atan2, real, dble, merge.
program device_intrinsics
  implicit none
  integer, parameter :: n = 1000
  integer :: k(n), ri(n, 8), i, nfail
  real(8) :: x(n), rd(n, 7)
  nfail = 0
  do i = 1, n
    k(i) = i * 37 - 18000
    x(i) = 0.013d0 * k(i)
  end do
!$acc parallel loop copyin(k, x) copyout(ri, rd)
  do i = 1, n
    ri(i, 1) = mod(k(i), 7) + modulo(k(i), 7)
    ri(i, 2) = sign(k(i), -3) + abs(k(i))
    ri(i, 3) = nint(x(i)) + int(x(i))
    ri(i, 4) = floor(x(i)) * 1000 + ceiling(x(i))
    ri(i, 5) = max(k(i), 0, i) - min(k(i), 5)
    ri(i, 6) = iand(k(i), 255) + ieor(k(i), 21845) + ishft(abs(k(i)), -2)
    ri(i, 7) = merge(1, 0, btest(abs(k(i)), 3))
    ri(i, 8) = int(real(k(i)) / 3.0)
    rd(i, 1) = sqrt(abs(x(i)))
    rd(i, 2) = exp(x(i) / 100.0d0)
    rd(i, 3) = log(1.0d0 + abs(x(i)))
    rd(i, 4) = sin(x(i)) + cos(x(i))
    rd(i, 5) = atan2(x(i), 1.0d0 + dble(i))
    rd(i, 6) = merge(x(i), -x(i), x(i) > 0.0d0)
    rd(i, 7) = dble(k(i)) / 8.0d0
  end do
  do i = 1, n
    if (ri(i, 1) /= mod(k(i), 7) + modulo(k(i), 7)) nfail = nfail + 1
    if (ri(i, 2) /= sign(k(i), -3) + abs(k(i))) nfail = nfail + 1
    if (ri(i, 3) /= nint(x(i)) + int(x(i))) nfail = nfail + 1
    if (ri(i, 4) /= floor(x(i)) * 1000 + ceiling(x(i))) nfail = nfail + 1
    if (ri(i, 5) /= max(k(i), 0, i) - min(k(i), 5)) nfail = nfail + 1
    if (ri(i, 6) /= iand(k(i), 255) + ieor(k(i), 21845) + ishft(abs(k(i)), -2)) nfail = nfail + 1
    if (ri(i, 7) /= merge(1, 0, btest(abs(k(i)), 3))) nfail = nfail + 1
    if (ri(i, 8) /= int(real(k(i)) / 3.0)) nfail = nfail + 1
    if (abs(rd(i, 1) - sqrt(abs(x(i)))) > 1.0d-14) nfail = nfail + 1
    if (abs(rd(i, 2) - exp(x(i) / 100.0d0)) > 1.0d-14 * rd(i, 2)) nfail = nfail + 1
    if (abs(rd(i, 3) - log(1.0d0 + abs(x(i)))) > 1.0d-14) nfail = nfail + 1
    if (abs(rd(i, 4) - (sin(x(i)) + cos(x(i)))) > 1.0d-14) nfail = nfail + 1
    if (abs(rd(i, 5) - atan2(x(i), 1.0d0 + dble(i))) > 1.0d-14) nfail = nfail + 1
    if (rd(i, 6) /= abs(x(i)) .and. x(i) /= 0.0d0) nfail = nfail + 1
    if (rd(i, 7) /= dble(k(i)) / 8.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program device_intrinsics
