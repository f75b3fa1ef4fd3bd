! use openacc: acc_get_device_type, acc_get_num_devices, acc_set_device_type, acc_get_device_num,
! acc_set_device_num and openacc_version, checked for consistency on whatever device runs them.
program api_devices
  use openacc
  implicit none
  integer(acc_device_kind) :: dt
  integer :: ndev, num, nfail
  nfail = 0
  if (openacc_version < 201306) then
    nfail = nfail + 1
    print *, 'FAIL openacc_version', openacc_version
  end if
  dt = acc_get_device_type()
  ndev = acc_get_num_devices(dt)
  if (ndev < 1) then
    nfail = nfail + 1
    print *, 'FAIL num devices', ndev
  end if
  if (acc_get_num_devices(acc_device_host) < 1) nfail = nfail + 1
  num = acc_get_device_num(dt)
  if (num < 0 .or. num >= ndev) nfail = nfail + 1
  call acc_set_device_num(ndev - 1, dt)
  if (acc_get_device_num(dt) /= ndev - 1) nfail = nfail + 1
  call acc_set_device_num(0, dt)
  call acc_set_device_type(dt)
  if (acc_get_device_type() /= dt) nfail = nfail + 1
  if (kind(dt) /= acc_device_kind) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_devices
