! cpu_time (real(8) and real(4)) and system_clock (count, count_rate, count_max; default and 8-byte
! integers): times never go backwards across a small computation and the rate is positive.
program timers
  implicit none
  real(8) :: t0, t1, s
  real(4) :: u0, u1
  integer :: c0, c1, rate, cmax, i, nfail
  integer(8) :: k0, k1, rate8
  nfail = 0
  call cpu_time(t0)
  call cpu_time(u0)
  call system_clock(c0, rate, cmax)
  call system_clock(count=k0, count_rate=rate8)
  s = 0.0d0
  do i = 1, 200000
    s = s + sqrt(dble(i))
  end do
  call cpu_time(t1)
  call cpu_time(u1)
  call system_clock(c1)
  call system_clock(k1)
  if (t1 < t0 .or. u1 < u0) nfail = nfail + 1
  if (rate <= 0 .or. rate8 <= 0 .or. cmax <= 0) nfail = nfail + 1
  if (c1 < c0 .and. cmax - c0 > 1000000) nfail = nfail + 1
  if (k1 < k0) nfail = nfail + 1
  if (s <= 0.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program timers
