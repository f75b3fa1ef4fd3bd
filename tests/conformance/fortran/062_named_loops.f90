! Named (labelled) constructs: exit name and cycle name reaching an outer loop, a named do while,
! and a named if/select with its name on the end line.
program named_loops
  implicit none
  integer :: i, j, k, hits, pairs, nfail
  nfail = 0
  hits = 0
  outer: do i = 1, 10
    inner: do j = 1, 10
      if (j > i) cycle outer
      if (i * j > 30) exit outer
      hits = hits + 1
    end do inner
  end do outer
  if (hits /= 1 + 2 + 3 + 4 + 5 + 5) nfail = nfail + 1
  if (i /= 6) nfail = nfail + 1
  pairs = 0
  k = 0
  search: do while (k < 100)
    k = k + 1
    rows: do i = 1, 3
      if (mod(k, 7) == 0) cycle search
      if (k > 20) exit search
      pairs = pairs + 1
    end do rows
  end do search
  if (pairs /= 3 * (20 - 2)) nfail = nfail + 1
  check: if (pairs > 0) then
    sel: select case (pairs)
    case (54)
      k = 1
    case default
      k = 2
    end select sel
  end if check
  if (k /= 1) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, hits, i, pairs
  call exit(nfail)
end program named_loops
