! Deep copy of a derived type with an allocatable component: enter data copyin of the object, then
! of its component (which attaches the device object's component to the device array), a region
! using obj%vals through present(obj), and exit data in the reverse order.
program deep_copy_components
  implicit none
  type :: holder
    integer :: n
    real(8), allocatable :: vals(:)
  end type holder
  type(holder) :: obj
  integer :: i, nfail
  nfail = 0
  obj%n = 256
  allocate(obj%vals(obj%n))
  obj%vals = [(dble(i), i = 1, obj%n)]
!$acc enter data copyin(obj)
!$acc enter data copyin(obj%vals)
!$acc parallel loop present(obj)
  do i = 1, obj%n
    obj%vals(i) = obj%vals(i) * 2.0d0
  end do
!$acc exit data copyout(obj%vals)
!$acc exit data delete(obj)
  do i = 1, obj%n
    if (obj%vals(i) /= 2.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program deep_copy_components
