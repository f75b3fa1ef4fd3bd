! Array intrinsics on sections inside a parallel loop (device code): dot_product of two columns,
! sum with mask=, product, maxval with a section stride, and size of a section, per iteration.
program array_intrinsics_in_device_code
  implicit none
  integer, parameter :: m = 16, n = 300
  real(8) :: a(m, n), b(m, n), d(n), s(n), p(n), mx(n)
  integer :: sz(n), i, nfail
  nfail = 0
  call fill(a, b)
!$acc parallel loop copyin(a, b) copyout(d, s, p, mx, sz)
  do i = 1, n
    d(i) = dot_product(a(:, i), b(:, i))
    s(i) = sum(a(:, i), mask=a(:, i) > 0.0d0)
    p(i) = product(b(1:4, i))
    mx(i) = maxval(a(1:m:3, i))
    sz(i) = size(a(2:m:2, i))
  end do
  do i = 1, n
    if (abs(d(i) - sum(a(:, i) * b(:, i))) > 1.0d-12) nfail = nfail + 1
    if (s(i) /= sum(max(a(:, i), 0.0d0))) nfail = nfail + 1
    if (abs(p(i) - b(1, i) * b(2, i) * b(3, i) * b(4, i)) > 1.0d-12 * abs(p(i))) nfail = nfail + 1
    if (mx(i) /= max(a(1, i), a(4, i), a(7, i), a(10, i), a(13, i), a(16, i))) nfail = nfail + 1
    if (sz(i) /= m / 2) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine fill(x, y)
    real(8), intent(out) :: x(:, :), y(:, :)
    integer :: p1, q1
    do q1 = 1, size(x, 2)
      do p1 = 1, size(x, 1)
        x(p1, q1) = dble(mod(p1 * 5 + q1 * 3, 11)) - 5.0d0
        y(p1, q1) = 1.0d0 + dble(mod(p1 + q1, 4)) * 0.25d0
      end do
    end do
  end subroutine fill
end program array_intrinsics_in_device_code
