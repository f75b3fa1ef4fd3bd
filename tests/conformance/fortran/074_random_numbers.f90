! random_seed(size=), (put=) and (get=), random_number on a scalar, a 1-D and a 2-D array (real(8)
! and real(4)): values lie in [0, 1), the same seed gives the same sequence, and the mean of many
! values is near 1/2.
program random_numbers
  implicit none
  integer :: nseed, i, nfail
  integer, allocatable :: seed(:), got(:)
  real(8) :: a(1000), b(1000), m(10, 20), x
  real(4) :: s(50)
  nfail = 0
  call random_seed(size=nseed)
  if (nseed < 1) nfail = nfail + 1
  allocate(seed(nseed), got(nseed))
  seed = [(12345 + 7 * i, i = 1, nseed)]
  call random_seed(put=seed)
  call random_number(a)
  call random_number(x)
  call random_number(m)
  call random_number(s)
  call random_seed(put=seed)
  call random_number(b)
  if (any(a /= b)) nfail = nfail + 1
  if (minval(a) < 0.0d0 .or. maxval(a) >= 1.0d0) nfail = nfail + 1
  if (x < 0.0d0 .or. x >= 1.0d0) nfail = nfail + 1
  if (minval(m) < 0.0d0 .or. maxval(m) >= 1.0d0 .or. minval(s) < 0.0 .or. maxval(s) >= 1.0) nfail = nfail + 1
  if (abs(sum(a) / 1000 - 0.5d0) > 0.05d0) nfail = nfail + 1
  if (all(a(1:999) == a(2:1000))) nfail = nfail + 1
  call random_seed(get=got)
  if (size(got) /= nseed) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program random_numbers
