! acc_on_device: in host code acc_on_device(acc_device_host) is true and
! acc_on_device(acc_device_not_host) is its opposite; in a compute region, the region answers for
! the device type that runs it (the same as acc_get_device_type() reports, or host when the
! region runs on the host).
program api_on_device
  use openacc
  implicit none
  logical :: host_here, not_host_here, in_region
  integer(acc_device_kind) :: dt
  integer :: nfail
  nfail = 0
  host_here = acc_on_device(acc_device_host)
  not_host_here = acc_on_device(acc_device_not_host)
  if (.not. host_here .or. not_host_here) nfail = nfail + 1
  dt = acc_get_device_type()
  in_region = .false.
!$acc serial copy(in_region) copyin(dt)
  in_region = acc_on_device(dt) .or. acc_on_device(acc_device_host)
!$acc end serial
  if (.not. in_region) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, host_here, not_host_here, in_region
  call exit(nfail)
end program api_on_device
