! Explicit-shape dummies whose bounds are other dummies (a(n, m)), assumed-size a(*) and
! a(lda, *), reshaping a 2-D actual as a 1-D dummy, and passing an element to start mid-array.
program assumed_size_explicit_dummies
  implicit none
  integer, parameter :: n = 5, m = 4
  real(8) :: a(n, m), flat(n * m)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = i * 1.0d0 + j * 0.01d0
    end do
  end do
  call copy_flat(a, flat, n * m)
  if (flat(n + 1) /= a(1, 2) .or. flat(n * m) /= a(n, m)) nfail = nfail + 1
  if (abs(trace(a, n, m) - (1.01d0 + 2.02d0 + 3.03d0 + 4.04d0)) > 1.0d-12) nfail = nfail + 1
  if (tail_sum(flat(n * m - 2), 3) /= flat(n * m - 2) + flat(n * m - 1) + flat(n * m)) nfail = nfail + 1
  call col_add(a, n, 2)
  if (a(3, 2) /= 3.02d0 + 1.0d0 .or. a(3, 3) /= 3.03d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine copy_flat(src, dst, total)
    integer, intent(in) :: total
    real(8), intent(in) :: src(*)
    real(8), intent(out) :: dst(total)
    integer :: k
    do k = 1, total
      dst(k) = src(k)
    end do
  end subroutine copy_flat
  real(8) function trace(x, nr, nc)
    integer, intent(in) :: nr, nc
    real(8), intent(in) :: x(nr, nc)
    integer :: k
    trace = 0.0d0
    do k = 1, min(nr, nc)
      trace = trace + x(k, k)
    end do
  end function trace
  real(8) function tail_sum(x, k)
    integer, intent(in) :: k
    real(8), intent(in) :: x(*)
    tail_sum = sum(x(1:k))
  end function tail_sum
  subroutine col_add(x, lda, col)
    integer, intent(in) :: lda, col
    real(8), intent(inout) :: x(lda, *)
    x(1:lda, col) = x(1:lda, col) + 1.0d0
  end subroutine col_add
end program assumed_size_explicit_dummies
