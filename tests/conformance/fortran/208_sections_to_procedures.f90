! Array sections passed to procedures that run compute regions on them: a column a(:, j) and a
! row a(i, :) (strided: copied in and out for the assumed-shape dummy) to a routine with a parallel
! loop, an interior block a(2:n-1, 2:m-1), and size()/lbound() of the dummy inside the region.
module sect_mod
  implicit none
contains
  subroutine add_index(v)
    real(8), intent(inout) :: v(:)
    integer :: k
!$acc parallel loop copy(v)
    do k = lbound(v, 1), ubound(v, 1)
      v(k) = v(k) + k
    end do
  end subroutine add_index
  subroutine negate_block(b)
    real(8), intent(inout) :: b(:, :)
    integer :: p, q
!$acc parallel loop collapse(2) copy(b)
    do q = 1, size(b, 2)
      do p = 1, size(b, 1)
        b(p, q) = -b(p, q)
      end do
    end do
  end subroutine negate_block
end module sect_mod

program sections_to_procedures
  use sect_mod
  implicit none
  integer, parameter :: n = 9, m = 7
  real(8) :: a(n, m), w(n, m)
  integer :: i, j, nfail
  nfail = 0
  a = 0.0d0
  call add_index(a(:, 3))
  call add_index(a(4, :))
  w = 0.0d0
  w(:, 3) = [(dble(i), i = 1, n)]
  w(4, :) = w(4, :) + [(dble(j), j = 1, m)]
  if (any(a /= w)) nfail = nfail + 1
  call negate_block(a(2:n - 1, 2:m - 1))
  w(2:n - 1, 2:m - 1) = -w(2:n - 1, 2:m - 1)
  if (any(a /= w)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program sections_to_procedures
