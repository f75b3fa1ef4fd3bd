! Allocatable assignment (Fortran 2003): assigning an array to an unallocated allocatable allocates
! it with the right side's shape, and assigning a different shape reallocates; a(:) = ... keeps the
! allocation; then the array goes through a data region.
program allocatable_reallocation
  implicit none
  real(8), allocatable :: a(:), m(:, :)
  integer :: i, nfail
  nfail = 0
  a = [1.0d0, 2.0d0, 3.0d0]
  if (.not. allocated(a) .or. size(a) /= 3) nfail = nfail + 1
  a = [(dble(i), i = 1, 10)]
  if (size(a) /= 10 .or. a(10) /= 10.0d0) nfail = nfail + 1
  a(:) = 0.5d0
  if (size(a) /= 10 .or. sum(a) /= 5.0d0) nfail = nfail + 1
  m = reshape([(dble(i), i = 1, 12)], [3, 4])
  if (any(shape(m) /= [3, 4]) .or. m(3, 4) /= 12.0d0) nfail = nfail + 1
  m = transpose(m)
  if (any(shape(m) /= [4, 3]) .or. m(4, 3) /= 12.0d0 .or. m(2, 1) /= 4.0d0) nfail = nfail + 1
!$acc parallel loop copy(a)
  do i = 1, size(a)
    a(i) = a(i) + i
  end do
  if (a(10) /= 10.5d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program allocatable_reallocation
