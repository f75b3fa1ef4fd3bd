! merge (scalar and elemental), any, all and count over whole arrays and with dim=.
program merge_any_all_count
  implicit none
  integer :: v(10), m(3, 4), i, j, nfail
  integer :: picked(10)
  nfail = 0
  v = [(mod(i * 7, 10) - 3, i = 1, 10)]
  picked = merge(v, -v, v > 0)
  do i = 1, 10
    if (picked(i) /= abs(v(i)) .and. v(i) /= 0) nfail = nfail + 1
  end do
  if (merge(1, 2, .false.) /= 2 .or. merge(1.5d0, 2.5d0, .true.) /= 1.5d0) nfail = nfail + 1
  if (.not. any(v > 5) .or. any(v > 6)) nfail = nfail + 1
  if (.not. all(v >= -3) .or. all(v > -3)) nfail = nfail + 1
  if (count(v < 0) /= 3) nfail = nfail + 1
  do j = 1, 4
    do i = 1, 3
      m(i, j) = i * j
    end do
  end do
  if (any(count(m > 4, dim=1) /= [0, 1, 2, 2])) nfail = nfail + 1
  if (any(all(m > 0, dim=2) .neqv. .true.)) nfail = nfail + 1
  if (any(any(m == 6, dim=2) .neqv. [.false., .true., .true.])) nfail = nfail + 1
  if (any(.false. .and. [.true.]) .or. .not. all([logical ::])) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program merge_any_all_count
