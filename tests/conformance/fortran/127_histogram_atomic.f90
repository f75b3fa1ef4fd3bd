! A histogram with atomic updates on integer bins indexed by data (random_number input), compared
! with a sequential histogram; the bin total equals the sample count.
program histogram_atomic
  implicit none
  integer, parameter :: n = 100000, nb = 32
  real(8) :: x(n)
  integer :: bins(nb), want(nb), b, i, nseed, nfail
  integer, allocatable :: seed(:)
  nfail = 0
  call random_seed(size=nseed)
  allocate(seed(nseed))
  seed = [(1000 + 17 * i, i = 1, nseed)]
  call random_seed(put=seed)
  call random_number(x)
  x = x * x
  bins = 0
!$acc parallel loop copyin(x) copy(bins) private(b)
  do i = 1, n
    b = min(nb, 1 + int(x(i) * nb))
!$acc atomic update
    bins(b) = bins(b) + 1
!$acc end atomic
  end do
  want = 0
  do i = 1, n
    b = min(nb, 1 + int(x(i) * nb))
    want(b) = want(b) + 1
  end do
  if (any(bins /= want) .or. sum(bins) /= n) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program histogram_atomic
