! A reduction on a whole array (OpenACC 2.7: reduction(+:hist) where hist is an array): a histogram
! without atomics, and reduction(max:) on a small array of per-class maxima.
! gfortran lacks array reductions (gfortran 12: "Array is not permitted in reduction").
program array_reduction
  implicit none
  integer, parameter :: n = 20000, nb = 10
  integer :: hist(nb), want(nb), i, b, nfail
  real(8) :: x(n), cmax(nb), wmax(nb)
  nfail = 0
  do i = 1, n
    x(i) = abs(sin(dble(i) * 0.731d0))
  end do
  hist = 0
  cmax = 0.0d0
!$acc parallel loop copyin(x) reduction(+:hist) reduction(max:cmax) private(b)
  do i = 1, n
    b = min(nb, 1 + int(x(i) * nb))
    hist(b) = hist(b) + 1
    cmax(b) = max(cmax(b), x(i))
  end do
  want = 0
  wmax = 0.0d0
  do i = 1, n
    b = min(nb, 1 + int(x(i) * nb))
    want(b) = want(b) + 1
    wmax(b) = max(wmax(b), x(i))
  end do
  if (any(hist /= want) .or. any(cmax /= wmax)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program array_reduction
