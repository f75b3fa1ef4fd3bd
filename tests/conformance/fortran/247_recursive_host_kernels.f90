! Compute regions launched from recursive host code: a recursive subroutine splits an array into
! halves (assumed-shape sections) down to blocks of at most 64 elements and runs a parallel loop
! on each block; a recursive merge sort with allocatable temporaries sorts the results.
module recursive_kernels
  implicit none
contains
  recursive subroutine transform(v, depth)
    real(8), intent(inout) :: v(:)
    integer, intent(in) :: depth
    integer :: i, h
    if (size(v) <= 64) then
!$acc parallel loop copy(v)
      do i = 1, size(v)
        v(i) = v(i) * 2.0d0 + depth
      end do
      return
    end if
    h = size(v) / 2
    call transform(v(1:h), depth + 1)
    call transform(v(h + 1:), depth + 1)
  end subroutine transform
  recursive subroutine msort(v)
    real(8), intent(inout) :: v(:)
    real(8), allocatable :: left(:), right(:)
    integer :: h, i, j, k
    if (size(v) < 2) return
    h = size(v) / 2
    left = v(1:h)
    right = v(h + 1:)
    call msort(left)
    call msort(right)
    i = 1; j = 1
    do k = 1, size(v)
      if (j > size(right)) then
        v(k) = left(i); i = i + 1
      else if (i > size(left)) then
        v(k) = right(j); j = j + 1
      else if (left(i) <= right(j)) then
        v(k) = left(i); i = i + 1
      else
        v(k) = right(j); j = j + 1
      end if
    end do
  end subroutine msort
end module recursive_kernels

program recursive_host_kernels
  use recursive_kernels
  implicit none
  integer, parameter :: n = 1000
  real(8) :: v(n), w(n)
  integer :: i, nfail
  nfail = 0
  v = [(dble(mod(i * 37, 101)), i = 1, n)]
  w = v
  call transform(v, 0)
  ! n = 1000 splits into 16 blocks of 62 or 63 elements at depth 4
  if (any(v /= 2.0d0 * w + 4.0d0)) nfail = nfail + 1
  call msort(v)
  do i = 2, n
    if (v(i - 1) > v(i)) nfail = nfail + 1
  end do
  if (abs(sum(v) - sum(2.0d0 * w + 4.0d0)) > 1.0d-9) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program recursive_host_kernels
