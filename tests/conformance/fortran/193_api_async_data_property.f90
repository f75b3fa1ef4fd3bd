! The asynchronous data routines acc_copyin_async, acc_update_device_async, acc_update_self_async
! and acc_copyout_async with acc_wait, and acc_get_property / acc_get_property_string for the
! current device (a name string and non-negative memory numbers).
program api_async_data_property
  use openacc
  use iso_c_binding, only: c_size_t
  implicit none
  integer, parameter :: n = 2000
  real(8) :: a(n)
  integer(acc_handle_kind) :: q
  integer(acc_device_kind) :: dt
  integer(c_size_t) :: mem
  character(len=64) :: name
  integer :: i, nfail
  nfail = 0
  q = 3
  a = 1.0d0
  call acc_copyin_async(a, q)
  a(1:n/2) = 2.0d0
  call acc_wait(q)
  call acc_update_device_async(a(1:n/2), q)
!$acc parallel loop present(a) async(q)
  do i = 1, n
    a(i) = a(i) * i
  end do
  call acc_update_self_async(a, q)
  call acc_wait(q)
  if (a(1) /= 2.0d0 .or. a(n) /= dble(n)) nfail = nfail + 1
  call acc_copyout_async(a, q)
  call acc_wait(q)
  dt = acc_get_device_type()
  mem = acc_get_property(0, dt, acc_property_memory)
  if (mem < 0) nfail = nfail + 1
  call acc_get_property_string(0, dt, acc_property_name, name)
  if (len_trim(name) == 0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, a(1), a(n), mem, trim(name)
  call exit(nfail)
end program api_async_data_property
