! acc_set_device_type switching to acc_device_host and back to the starting type between compute
! regions: each region computes the same results, acc_get_device_type reports each switch, and
! acc_on_device(acc_device_host) is true inside the region that runs on the host.
program api_switch_device
  use openacc
  implicit none
  integer, parameter :: n = 500
  integer(acc_device_kind) :: start
  real(8) :: a(n)
  logical :: on_host
  integer :: i, nfail
  nfail = 0
  start = acc_get_device_type()
  a = 1.0d0
!$acc parallel loop copy(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
  call acc_set_device_type(acc_device_host)
  if (acc_get_device_type() /= acc_device_host) nfail = nfail + 1
  on_host = .false.
!$acc parallel loop copy(a) reduction(.or.:on_host)
  do i = 1, n
    a(i) = a(i) * 2.0d0
    on_host = on_host .or. acc_on_device(acc_device_host)
  end do
  if (.not. on_host) nfail = nfail + 1
  call acc_set_device_type(start)
  if (acc_get_device_type() /= start) nfail = nfail + 1
!$acc parallel loop copy(a)
  do i = 1, n
    a(i) = a(i) - 1.0d0
  end do
  do i = 1, n
    if (a(i) /= 2.0d0 * (1.0d0 + i) - 1.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_switch_device
