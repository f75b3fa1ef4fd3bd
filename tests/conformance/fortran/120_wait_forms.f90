! wait directive forms: wait(1, 2) on several queues, wait with async (the wait is itself queued),
! enter/exit data with async and wait clauses, and acc_async_sync-free plain waits.
program wait_forms
  implicit none
  integer, parameter :: n = 6000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  b = 2.0d0
!$acc enter data copyin(a) async(1)
!$acc enter data copyin(b) async(2)
!$acc wait(1, 2)
!$acc parallel loop present(a, b) async(1)
  do i = 1, n
    a(i) = a(i) + b(i) * i
  end do
!$acc wait(1) async(2)
!$acc parallel loop present(a, b) async(2)
  do i = 1, n
    b(i) = a(i) * 2
  end do
!$acc exit data copyout(a, b) async(2) wait(1)
!$acc wait
  do i = 1, n
    if (a(i) /= 1.0d0 + 2.0d0 * i .or. b(i) /= 2.0d0 * (1.0d0 + 2.0d0 * i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program wait_forms
