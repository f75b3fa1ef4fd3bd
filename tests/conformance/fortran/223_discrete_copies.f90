! expect: discrete
! On a device with its own memory, the host and device copies are separate: a region changing a
! copyin array leaves the host's values until update self, a create'd array is not filled from the
! host, and copyout of a section leaves the rest of the host array alone.
program discrete_copies
  implicit none
  integer, parameter :: n = 256
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  b = 5.0d0
!$acc data copyin(a) create(b)
!$acc parallel loop present(a, b)
  do i = 1, n
    a(i) = 2.0d0
    b(i) = b(i) * 0.0d0 + 3.0d0
  end do
  if (any(a /= 1.0d0)) then
    nfail = nfail + 1
    print *, 'FAIL host a changed before update'
  end if
!$acc update self(a(1:n/2))
  if (any(a(1:n/2) /= 2.0d0) .or. any(a(n/2+1:n) /= 1.0d0)) then
    nfail = nfail + 1
    print *, 'FAIL update self of a section'
  end if
!$acc end data
  if (any(a(n/2+1:n) /= 1.0d0) .or. any(b /= 5.0d0)) then
    nfail = nfail + 1
    print *, 'FAIL copyin/create data came back to the host'
  end if
  call exit(nfail)
end program discrete_copies
