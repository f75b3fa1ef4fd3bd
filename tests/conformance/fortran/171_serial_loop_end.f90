! serial loop with its !$acc end serial loop line, kernels loop with !$acc end kernels loop, and
! parallel loop with !$acc end parallel loop, each followed by a statement that must run once.
program serial_loop_end
  implicit none
  integer, parameter :: n = 300
  integer :: a(n), cnt, i, nfail
  nfail = 0
  cnt = 0
!$acc serial loop copyout(a)
  do i = 1, n
    a(i) = i
  end do
!$acc end serial loop
  cnt = cnt + 1
!$acc kernels loop copy(a)
  do i = 1, n
    a(i) = a(i) * 2
  end do
!$acc end kernels loop
  cnt = cnt + 1
!$acc parallel loop copy(a)
  do i = 1, n
    a(i) = a(i) + 1
  end do
!$acc end parallel loop
  cnt = cnt + 1
  if (cnt /= 3 .or. any(a /= [(2 * i + 1, i = 1, n)])) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program serial_loop_end
