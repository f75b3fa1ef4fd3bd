! Array pointers in data clauses: a pointer associated with an allocated target and with a
! contiguous section of a target array; the region writes through the pointer and the target sees it.
program pointer_in_clauses
  implicit none
  integer, parameter :: n = 600
  real(8), target :: t(n)
  real(8), pointer :: p(:), q(:)
  integer :: i, nfail
  nfail = 0
  t = 1.0d0
  p => t
!$acc parallel loop copy(p)
  do i = 1, size(p)
    p(i) = p(i) + i
  end do
  q => t(101:200)
!$acc parallel loop copy(q)
  do i = 1, size(q)
    q(i) = -q(i)
  end do
  allocate(p(50))
  p = 2.0d0
!$acc parallel loop copy(p)
  do i = 1, 50
    p(i) = p(i) * i
  end do
  if (sum(p) /= 2.0d0 * 50 * 51 / 2) nfail = nfail + 1
  deallocate(p)
  do i = 1, n
    if (i >= 101 .and. i <= 200) then
      if (t(i) /= -(1.0d0 + i)) nfail = nfail + 1
    else if (t(i) /= 1.0d0 + i) then
      nfail = nfail + 1
    end if
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program pointer_in_clauses
