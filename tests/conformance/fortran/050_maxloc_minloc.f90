! maxloc and minloc: 1-D and 2-D results (1-based indices relative to the array's start), the first
! of equal values, with mask=, with dim=, and on an array with a lower bound other than 1.
program maxloc_minloc
  implicit none
  integer :: v(7), m(3, 4), loc1(1), loc2(2), i, j, nfail
  real(8) :: w(0:4)
  nfail = 0
  v = [4, 9, 2, 9, -3, 7, -3]
  loc1 = maxloc(v)
  if (loc1(1) /= 2) nfail = nfail + 1
  loc1 = minloc(v)
  if (loc1(1) /= 5) nfail = nfail + 1
  loc1 = maxloc(v, mask=v < 9)
  if (loc1(1) /= 6) nfail = nfail + 1
  if (maxloc(v, dim=1) /= 2) nfail = nfail + 1
  do j = 1, 4
    do i = 1, 3
      m(i, j) = mod(i * 7 + j * 5, 13)
    end do
  end do
  loc2 = maxloc(m)
  if (m(loc2(1), loc2(2)) /= maxval(m)) nfail = nfail + 1
  loc2 = minloc(m)
  if (m(loc2(1), loc2(2)) /= minval(m)) nfail = nfail + 1
  if (any(maxloc(m, dim=1) < 1) .or. size(minloc(m, dim=2)) /= 3) nfail = nfail + 1
  w = [1.0d0, 5.0d0, 3.0d0, 5.5d0, 0.0d0]
  loc1 = maxloc(w)
  if (loc1(1) /= 4) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program maxloc_minloc
