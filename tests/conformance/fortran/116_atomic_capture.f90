! atomic capture in its Fortran block forms (!$acc atomic capture ... !$acc end atomic):
! capture then update (v = x; x = x + 1) hands out unique slots, update then capture
! (x = x + k; v = x) gives distinct running totals, and capture then write swaps a value.
program atomic_capture
  implicit none
  integer, parameter :: n = 500
  integer :: next, slot(n), owner(n), total, after(n), i, nfail, old, tok
  logical :: used(0:n - 1)
  nfail = 0
  next = 0
  total = 0
  tok = 0
!$acc parallel loop copy(next, total, tok) copyout(slot, after) private(old)
  do i = 1, n
!$acc atomic capture
    slot(i) = next
    next = next + 1
!$acc end atomic
!$acc atomic capture
    total = total + i
    after(i) = total
!$acc end atomic
!$acc atomic capture
    old = tok
    tok = i
!$acc end atomic
  end do
  used = .false.
  do i = 1, n
    if (slot(i) < 0 .or. slot(i) >= n) then
      nfail = nfail + 1
    else
      if (used(slot(i))) nfail = nfail + 1
      used(slot(i)) = .true.
    end if
    owner(i) = after(i)
  end do
  if (next /= n .or. total /= n * (n + 1) / 2 .or. maxval(owner) /= total) nfail = nfail + 1
  if (tok < 1 .or. tok > n) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, next, total, tok
  call exit(nfail)
end program atomic_capture
