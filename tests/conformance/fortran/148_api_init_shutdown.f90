! acc_init and acc_shutdown with the current device type: compute regions work after init, and
! after a shutdown followed by a new init.
program api_init_shutdown
  use openacc
  implicit none
  integer, parameter :: n = 100
  integer :: a(n), i, nfail
  integer(acc_device_kind) :: dt
  nfail = 0
  dt = acc_get_device_type()
  call acc_init(dt)
!$acc parallel loop copyout(a)
  do i = 1, n
    a(i) = i
  end do
  call acc_shutdown(dt)
  call acc_init(dt)
!$acc parallel loop copy(a)
  do i = 1, n
    a(i) = a(i) * 2
  end do
  if (any(a /= [(2 * i, i = 1, n)])) nfail = nfail + 1
  if (acc_get_device_type() /= dt) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_init_shutdown
