! Allocatable arrays: allocate with bounds, allocated(), stat= on allocate/deallocate (0 on success,
! non-zero when allocating an allocated array), reallocation with new bounds, and allocatable
! arrays in an OpenACC data clause.
program allocatable_arrays
  implicit none
  real(8), allocatable :: a(:), b(:, :)
  integer :: i, j, ierr, nfail
  nfail = 0
  if (allocated(a)) nfail = nfail + 1
  allocate(a(100), stat=ierr)
  if (ierr /= 0 .or. .not. allocated(a) .or. size(a) /= 100) nfail = nfail + 1
  allocate(a(5), stat=ierr)
  if (ierr == 0) then
    nfail = nfail + 1
    print *, 'FAIL second allocate succeeded'
  end if
  a = [(i * 0.5d0, i = 1, 100)]
!$acc parallel loop copy(a)
  do i = 1, 100
    a(i) = a(i) + 1.0d0
  end do
  if (a(100) /= 51.0d0) nfail = nfail + 1
  deallocate(a, stat=ierr)
  if (ierr /= 0 .or. allocated(a)) nfail = nfail + 1
  allocate(b(-2:2, 0:3))
  do j = 0, 3
    do i = -2, 2
      b(i, j) = i * j
    end do
  end do
  if (lbound(b, 1) /= -2 .or. ubound(b, 2) /= 3 .or. sum(b) /= 0.0d0 .or. b(2, 3) /= 6.0d0) nfail = nfail + 1
  deallocate(b)
  allocate(a(0:9))
  a = 1.0d0
  if (lbound(a, 1) /= 0 .or. sum(a) /= 10.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program allocatable_arrays
