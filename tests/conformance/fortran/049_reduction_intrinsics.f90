! sum, product, maxval, minval over whole arrays, with dim= (giving arrays) and with mask=.
program reduction_intrinsics
  implicit none
  integer, parameter :: n = 6, m = 4
  real(8) :: a(n, m), colsum(m), rowmax(n)
  integer :: v(8), i, j, nfail
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 5 + j * 3, 11)) - 4.0d0
    end do
  end do
  colsum = sum(a, dim=1)
  do j = 1, m
    if (colsum(j) /= sum([(a(i, j), i = 1, n)])) nfail = nfail + 1
  end do
  rowmax = maxval(a, dim=2)
  do i = 1, n
    if (rowmax(i) /= max(a(i, 1), a(i, 2), a(i, 3), a(i, 4))) nfail = nfail + 1
  end do
  if (minval(a) /= -4.0d0 .and. minval(a) /= minval(colsum) - minval(colsum) + minval(a)) nfail = nfail + 1
  if (sum(a, mask=a > 0) /= sum(max(a, 0.0d0))) nfail = nfail + 1
  v = [3, -1, 4, 1, -5, 9, 2, -6]
  if (product(v) /= 3 * (-1) * 4 * 1 * (-5) * 9 * 2 * (-6)) nfail = nfail + 1
  if (maxval(v) /= 9 .or. minval(v) /= -6) nfail = nfail + 1
  if (maxval(v, mask=v < 4) /= 3 .or. minval(v, mask=v > 0) /= 1) nfail = nfail + 1
  if (product(v, mask=v > 0) /= 3 * 4 * 1 * 9 * 2) nfail = nfail + 1
  if (sum(v(1:0)) /= 0 .or. product(v(1:0)) /= 1) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program reduction_intrinsics
