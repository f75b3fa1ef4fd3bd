! Actual arguments that need a temporary: a strided section passed to an explicit-shape dummy
! (sequence association: the callee sees contiguous elements, written back after the call), a
! reversed section, an expression argument, and self-overlapping assignments a = a(n:1:-1).
program sequence_association_copies
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(n), r(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  call scale_explicit(a(1:n:2), n / 2, 10.0d0)
  do i = 1, n
    if (mod(i, 2) == 1 .and. a(i) /= 10.0d0 * i) nfail = nfail + 1
    if (mod(i, 2) == 0 .and. a(i) /= dble(i)) nfail = nfail + 1
  end do
  a = [(dble(i), i = 1, n)]
  call scale_explicit(a(n:1:-3), 4, -1.0d0)
  if (a(n) /= -dble(n) .or. a(n - 3) /= -dble(n - 3) .or. a(n - 1) /= dble(n - 1)) nfail = nfail + 1
  if (total(a * 2.0d0, n) /= 2.0d0 * sum(a)) nfail = nfail + 1
  a = [(dble(i), i = 1, n)]
  r = a(n:1:-1)
  a = a(n:1:-1)
  if (any(a /= r) .or. a(1) /= dble(n)) nfail = nfail + 1
  a(2:n) = a(1:n - 1) + a(2:n)
  if (a(2) /= r(1) + r(2) .or. a(n) /= r(n - 1) + r(n)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine scale_explicit(v, m, f)
    integer, intent(in) :: m
    real(8), intent(inout) :: v(m)
    real(8), intent(in) :: f
    integer :: k
!$acc parallel loop copy(v)
    do k = 1, m
      v(k) = v(k) * f
    end do
  end subroutine scale_explicit
  real(8) function total(v, m)
    integer, intent(in) :: m
    real(8), intent(in) :: v(m)
    total = sum(v)
  end function total
end program sequence_association_copies
