! declare device_resident (a module array that lives only on the device, filled and read by
! compute regions) and declare link (a large module array whose device copy is made by a data
! clause where it is used).
module big_tables
  implicit none
  integer, parameter :: n = 4096
  real(8) :: scratch(n)
!$acc declare device_resident(scratch)
  real(8) :: table(n)
!$acc declare link(table)
end module big_tables

program declare_link_resident
  use big_tables
  implicit none
  real(8) :: out(n)
  integer :: i, nfail
  nfail = 0
  table = [(dble(i) * 3.0d0, i = 1, n)]
!$acc parallel loop
  do i = 1, n
    scratch(i) = dble(i)
  end do
!$acc parallel loop copyin(table) copyout(out)
  do i = 1, n
    out(i) = table(i) - scratch(i)
  end do
  do i = 1, n
    if (out(i) /= 2.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program declare_link_resident
