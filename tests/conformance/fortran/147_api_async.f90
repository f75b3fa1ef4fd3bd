! acc_async_test, acc_async_test_all, acc_wait, acc_wait_all and acc_wait_async with async
! queues given as integer(acc_handle_kind) values, and acc_async_sync / acc_async_noval.
program api_async
  use openacc
  implicit none
  integer, parameter :: n = 50000
  real(8) :: a(n), b(n)
  integer(acc_handle_kind) :: q1, q2
  integer :: i, nfail
  nfail = 0
  q1 = 1
  q2 = 2
  a = 1.0d0
  b = 2.0d0
!$acc enter data copyin(a, b)
!$acc parallel loop present(a) async(q1)
  do i = 1, n
    a(i) = a(i) + i
  end do
!$acc parallel loop present(b) async(q2)
  do i = 1, n
    b(i) = b(i) * i
  end do
  call acc_wait(q1)
  if (.not. acc_async_test(q1)) nfail = nfail + 1
  call acc_wait_async(q2, q1)
  call acc_wait_all()
  if (.not. acc_async_test_all()) nfail = nfail + 1
!$acc parallel loop present(a, b) async(acc_async_noval)
  do i = 1, n
    a(i) = a(i) + b(i)
  end do
  call acc_wait(acc_async_noval)
!$acc parallel loop present(a) async(acc_async_sync)
  do i = 1, n
    a(i) = a(i) - 1.0d0
  end do
!$acc exit data copyout(a) delete(b)
  do i = 1, n
    if (a(i) /= dble(i) + 2.0d0 * i) nfail = nfail + 1
  end do
  if (acc_async_sync >= 0 .or. acc_async_noval >= 0 .or. acc_async_sync == acc_async_noval) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_async
