! reduction(max:) and reduction(min:) on real(8) and integer variables over pseudo-random data,
! in one combined directive, compared with maxval/minval on the host.
program reduction_max_min
  implicit none
  integer, parameter :: n = 50000
  real(8) :: a(n), hi, lo
  integer :: k(n), khi, klo, i, nfail, nseed
  integer, allocatable :: seed(:)
  nfail = 0
  call random_seed(size=nseed)
  allocate(seed(nseed))
  seed = 42
  call random_seed(put=seed)
  call random_number(a)
  a = 2.0d0 * a - 1.0d0
  k = int(a * 1.0d6)
  hi = -huge(hi)
  lo = huge(lo)
  khi = -huge(khi)
  klo = huge(klo)
!$acc parallel loop copyin(a, k) reduction(max:hi, khi) reduction(min:lo, klo)
  do i = 1, n
    hi = max(hi, a(i))
    lo = min(lo, a(i))
    khi = max(khi, k(i))
    klo = min(klo, k(i))
  end do
  if (hi /= maxval(a) .or. lo /= minval(a)) nfail = nfail + 1
  if (khi /= maxval(k) .or. klo /= minval(k)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, hi, lo, khi, klo
  call exit(nfail)
end program reduction_max_min
