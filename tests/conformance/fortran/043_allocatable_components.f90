! Derived types with allocatable array components: allocate per object, allocated() on the
! component, whole-component expressions, and an array of such objects with different sizes.
program allocatable_components
  implicit none
  type :: bucket
    integer :: id
    real(8), allocatable :: vals(:)
  end type bucket
  type(bucket) :: b(3)
  integer :: i, k, nfail
  real(8) :: s
  nfail = 0
  do k = 1, 3
    b(k)%id = k
    if (allocated(b(k)%vals)) nfail = nfail + 1
    allocate(b(k)%vals(10 * k))
    b(k)%vals = [(dble(i * k), i = 1, 10 * k)]
  end do
  do k = 1, 3
    s = sum(b(k)%vals)
    if (size(b(k)%vals) /= 10 * k .or. s /= k * (10 * k) * (10 * k + 1) / 2.0d0) then
      nfail = nfail + 1
      print *, 'FAIL bucket', k, s
    end if
  end do
  b(2)%vals(5:6) = -1.0d0
  if (b(2)%vals(5) /= -1.0d0 .or. b(2)%vals(7) /= 14.0d0) nfail = nfail + 1
  deallocate(b(1)%vals)
  if (allocated(b(1)%vals) .or. .not. allocated(b(3)%vals)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program allocatable_components
