! atomic on array elements and derived-type components: scatter-add into a(idx(i)) with atomic
! update, atomic capture of the old value of a bin to count first arrivals, and atomic write
! of a component.
program atomic_array_elements
  implicit none
  integer, parameter :: n = 5000, nb = 17
  type :: tally
    integer :: hits
    real(8) :: last
  end type tally
  real(8) :: a(nb), want(nb)
  integer :: idx(n), firsts, old, seen(nb), i, nfail
  type(tally) :: t
  nfail = 0
  idx = [(mod(i * 7, nb) + 1, i = 1, n)]
  a = 0.0d0
  seen = 0
  firsts = 0
  t%hits = 0
  t%last = 0.0d0
!$acc parallel loop copyin(idx) copy(a, seen, firsts, t) private(old)
  do i = 1, n
!$acc atomic update
    a(idx(i)) = a(idx(i)) + 0.5d0
!$acc atomic capture
    old = seen(idx(i))
    seen(idx(i)) = seen(idx(i)) + 1
!$acc end atomic
    if (old == 0) then
!$acc atomic
      firsts = firsts + 1
    end if
!$acc atomic update
    t%hits = t%hits + 1
    if (i == n) then
!$acc atomic write
      t%last = 1.5d0
    end if
  end do
  want = 0.0d0
  do i = 1, n
    want(idx(i)) = want(idx(i)) + 0.5d0
  end do
  if (any(a /= want) .or. sum(seen) /= n .or. firsts /= nb) nfail = nfail + 1
  if (t%hits /= n .or. t%last /= 1.5d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, firsts, t%hits
  call exit(nfail)
end program atomic_array_elements
