! default(none) with every variable in a clause, and default(present) inside a data region (arrays
! without clauses must be present); scalars in default(none) regions get firstprivate.
program default_none_present
  implicit none
  integer, parameter :: n = 1200
  real(8) :: a(n), b(n), f
  integer :: i, nfail
  nfail = 0
  f = 1.5d0
  a = [(dble(i), i = 1, n)]
!$acc parallel loop default(none) copyin(a) copyout(b) firstprivate(f)
  do i = 1, n
    b(i) = f * a(i)
  end do
!$acc data copy(a, b)
!$acc parallel loop default(present)
  do i = 1, n
    a(i) = b(i) - a(i)
  end do
!$acc kernels default(present)
  b(1) = -1.0d0
!$acc end kernels
!$acc end data
  do i = 1, n
    if (a(i) /= 0.5d0 * i) nfail = nfail + 1
  end do
  if (b(1) /= -1.0d0 .or. b(n) /= 1.5d0 * n) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program default_none_present
