! Matrix multiplication with explicit loops: gang/vector collapse(2) over the result and a seq
! inner product loop with a private accumulator, compared with the matmul intrinsic.
program matmul_loops
  implicit none
  integer, parameter :: n = 60, k = 45, m = 50
  real(8) :: a(n, k), b(k, m), c(n, m), acc
  integer :: i, j, l, nfail
  nfail = 0
  do j = 1, k
    do i = 1, n
      a(i, j) = dble(mod(i * j, 13)) - 6.0d0
    end do
  end do
  do j = 1, m
    do i = 1, k
      b(i, j) = dble(mod(i + 2 * j, 7)) * 0.5d0
    end do
  end do
!$acc parallel loop collapse(2) gang vector copyin(a, b) copyout(c) private(acc)
  do j = 1, m
    do i = 1, n
      acc = 0.0d0
!$acc loop seq
      do l = 1, k
        acc = acc + a(i, l) * b(l, j)
      end do
      c(i, j) = acc
    end do
  end do
  if (maxval(abs(c - matmul(a, b))) > 1.0d-10) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program matmul_loops
