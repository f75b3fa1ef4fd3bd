! The 1.0/2.0 clause spellings still accepted: present_or_copy/pcopy, present_or_copyin/pcopyin,
! present_or_copyout/pcopyout, present_or_create/pcreate, which behave as copy/copyin/... .
program legacy_clause_spellings
  implicit none
  integer, parameter :: n = 700
  real(8) :: a(n), b(n), c(n), t(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  b = 1.0d0
!$acc data pcopyin(a) pcopy(b) pcopyout(c) pcreate(t)
!$acc parallel loop present_or_copyin(a) present_or_create(t)
  do i = 1, n
    t(i) = a(i) * 2.0d0
  end do
!$acc parallel loop present_or_copy(b) present_or_copyout(c)
  do i = 1, n
    c(i) = t(i) + b(i)
    b(i) = -b(i)
  end do
!$acc end data
  do i = 1, n
    if (c(i) /= 2.0d0 * i + 1.0d0 .or. b(i) /= -1.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program legacy_clause_spellings
