! dot_product, matmul (matrix-matrix, matrix-vector, vector-matrix) and transpose, checked
! against explicit loops on non-square inputs.
program dot_matmul_transpose
  implicit none
  integer, parameter :: n = 5, k = 4, m = 3
  real(8) :: a(n, k), b(k, m), c(n, m), w(n, m), t(k, n), x(k), y(n), z(k)
  integer :: i, j, l, nfail
  nfail = 0
  do j = 1, k
    do i = 1, n
      a(i, j) = sin(dble(i + 2 * j))
    end do
  end do
  do j = 1, m
    do i = 1, k
      b(i, j) = cos(dble(3 * i - j))
    end do
  end do
  x = [(0.5d0 * i, i = 1, k)]
  c = matmul(a, b)
  w = 0.0d0
  do j = 1, m
    do i = 1, n
      do l = 1, k
        w(i, j) = w(i, j) + a(i, l) * b(l, j)
      end do
    end do
  end do
  if (maxval(abs(c - w)) > 1.0d-12) nfail = nfail + 1
  y = matmul(a, x)
  do i = 1, n
    if (abs(y(i) - dot_product(a(i, :), x)) > 1.0d-12) nfail = nfail + 1
  end do
  z = matmul(y, a)
  do j = 1, k
    if (abs(z(j) - sum(y * a(:, j))) > 1.0d-12) nfail = nfail + 1
  end do
  t = transpose(a)
  if (t(2, 5) /= a(5, 2) .or. any(shape(t) /= [k, n])) nfail = nfail + 1
  if (dot_product([1.0d0, 2.0d0], [3.0d0, -1.0d0]) /= 1.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program dot_matmul_transpose
