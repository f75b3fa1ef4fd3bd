! Explicit-shape arrays with lower bounds a(0:n-1, -1:m): indexing, lbound/ubound/size/shape,
! column-major storage order seen through an assumed-size view, and an OpenACC loop over them.
program explicit_bounds
  implicit none
  integer, parameter :: n = 6, m = 4
  real(8) :: a(0:n-1, -1:m), b(0:n-1, -1:m)
  integer :: i, j, nfail
  nfail = 0
  do j = -1, m
    do i = 0, n - 1
      a(i, j) = 100 * i + j
    end do
  end do
  if (any(lbound(a) /= [0, -1]) .or. any(ubound(a) /= [n - 1, m]) .or. any(shape(a) /= [n, m + 2])) then
    nfail = nfail + 1
    print *, 'FAIL bounds', lbound(a), ubound(a), shape(a)
  end if
  if (size(a) /= n * (m + 2) .or. size(a, 2) /= m + 2) nfail = nfail + 1
  call check_order(a, n * (m + 2), nfail)
!$acc parallel loop collapse(2) copyin(a) copyout(b)
  do j = -1, m
    do i = 0, n - 1
      b(i, j) = 2 * a(i, j)
    end do
  end do
  do j = -1, m
    do i = 0, n - 1
      if (b(i, j) /= 2 * (100 * i + j)) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine check_order(flat, total, nf)
    integer, intent(in) :: total
    real(8), intent(in) :: flat(*)
    integer, intent(inout) :: nf
    ! column-major: element (i, j) is at 1 + i + (j + 1) * n
    if (flat(1) /= a(0, -1) .or. flat(2) /= a(1, -1) .or. flat(n + 1) /= a(0, 0) .or. flat(total) /= a(n - 1, m)) then
      nf = nf + 1
      print *, 'FAIL column-major order'
    end if
  end subroutine check_order
end program explicit_bounds
