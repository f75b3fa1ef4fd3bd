! Type conversion intrinsics: real (with kind), int (truncation), dble, nint (round half away
! from zero), floor, ceiling, and the implicit conversions of mixed-type expressions.
program conversions
  implicit none
  integer :: nfail, i
  real(8) :: d
  real :: r
  nfail = 0
  if (int(2.7d0) /= 2 .or. int(-2.7d0) /= -2) nfail = nfail + 1
  if (nint(2.5d0) /= 3 .or. nint(-2.5d0) /= -3 .or. nint(2.4) /= 2) nfail = nfail + 1
  if (floor(-2.1d0) /= -3 .or. floor(2.9d0) /= 2) nfail = nfail + 1
  if (ceiling(-2.9d0) /= -2 .or. ceiling(2.1d0) /= 3) nfail = nfail + 1
  d = dble(7) / 2
  if (d /= 3.5d0) nfail = nfail + 1
  r = real(7) / 2
  if (r /= 3.5) nfail = nfail + 1
  d = real(1, 8) / 3
  if (abs(d - 1.0d0 / 3.0d0) > 1.0d-16) nfail = nfail + 1
  i = 7 / 2 * 2
  if (i /= 6) nfail = nfail + 1
  d = 7 / 2 * 2.0d0
  if (d /= 6.0d0) nfail = nfail + 1
  d = 2.0d0 * 7 / 2
  if (d /= 7.0d0) nfail = nfail + 1
  i = 3.99d0
  if (i /= 3) nfail = nfail + 1
  if (int(huge(1) / 2 + 0.0d0) /= huge(1) / 2) nfail = nfail + 1
  if (2**10 /= 1024 .or. 2.0d0**(-1) /= 0.5d0 .or. (-2)**3 /= -8) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program conversions
