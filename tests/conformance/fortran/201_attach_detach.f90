! attach and detach with a derived type holding a pointer component: the target array and the
! object are entered separately, enter data attach(o%p) points the device object at the device
! array, a region writes through o%p, and detach / delete / copyout undo it in reverse.
program attach_detach
  implicit none
  type :: holder
    integer :: n
    real(8), pointer :: p(:)
  end type holder
  integer, parameter :: n = 300
  type(holder) :: o
  real(8), target :: a(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  o%n = n
  o%p => a
!$acc enter data copyin(a)
!$acc enter data copyin(o)
!$acc enter data attach(o%p)
!$acc parallel loop present(o)
  do i = 1, n
    o%p(i) = o%p(i) * 3.0d0
  end do
!$acc exit data detach(o%p)
!$acc exit data delete(o)
!$acc exit data copyout(a)
  do i = 1, n
    if (a(i) /= 3.0d0 * i) nfail = nfail + 1
  end do
  if (.not. associated(o%p, a)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program attach_detach
