! acc_update_device and acc_update_self on whole arrays and sections of data entered with enter
! data; the checks hold whether or not the device shares the host's memory.
program api_update
  use openacc
  implicit none
  integer, parameter :: n = 600
  real(8) :: a(n)
  integer :: i, nfail
  nfail = 0
  a = 0.0d0
!$acc enter data copyin(a)
  a(1:n/2) = 5.0d0
  call acc_update_device(a(1:n/2))
!$acc parallel loop present(a)
  do i = 1, n
    a(i) = a(i) + 1.0d0
  end do
  call acc_update_self(a)
  if (any(a(1:n/2) /= 6.0d0) .or. any(a(n/2+1:n) /= 1.0d0)) nfail = nfail + 1
  a = 10.0d0
  call acc_update_device(a)
!$acc parallel loop present(a)
  do i = 1, n
    a(i) = a(i) * i
  end do
  call acc_update_self(a(n - 9:n))
  do i = n - 9, n
    if (a(i) /= 10.0d0 * i) nfail = nfail + 1
  end do
!$acc exit data delete(a)
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_update
