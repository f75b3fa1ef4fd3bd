! Two-dimensional sections with strides in both dimensions and a reversed dimension passed to an
! assumed-shape dummy whose procedure runs a compute region on it (the actual is copied into a
! contiguous temporary and back), then inquiry of the dummy's shape inside.
module strided_mod
  implicit none
contains
  subroutine mark(a, base)
    real(8), intent(inout) :: a(:, :)
    real(8), intent(in) :: base
    integer :: i, j
!$acc parallel loop collapse(2) copy(a)
    do j = 1, size(a, 2)
      do i = 1, size(a, 1)
        a(i, j) = a(i, j) + base + 10 * i + j
      end do
    end do
  end subroutine mark
end module strided_mod

program strided_2d_actuals
  use strided_mod
  implicit none
  integer, parameter :: n = 9, m = 8
  real(8) :: a(n, m), w(n, m)
  integer :: i, j, p, q, nfail
  nfail = 0
  a = 0.0d0
  call mark(a(1:n:2, 2:m:3), 1000.0d0)
  call mark(a(n:1:-4, 1:1), 5000.0d0)
  w = 0.0d0
  q = 0
  do j = 2, m, 3
    q = q + 1
    p = 0
    do i = 1, n, 2
      p = p + 1
      w(i, j) = w(i, j) + 1000.0d0 + 10 * p + q
    end do
  end do
  p = 0
  do i = n, 1, -4
    p = p + 1
    w(i, 1) = w(i, 1) + 5000.0d0 + 10 * p + 1
  end do
  if (any(a /= w)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, count(a /= w)
  call exit(nfail)
end program strided_2d_actuals
