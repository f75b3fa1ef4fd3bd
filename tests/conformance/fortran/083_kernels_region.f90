! A kernels region with two loop nests, whole-array assignment and a scalar statement, ended by
! !$acc end kernels; the compiler decides the parallelism.
program kernels_region
  implicit none
  integer, parameter :: n = 200, m = 150
  real(8) :: a(n, m), b(n, m), rowsum(n)
  integer :: i, j, nfail
  real(8) :: s
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i - j) / 10.0d0
    end do
  end do
!$acc kernels copyin(a) copyout(b, rowsum)
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j) * 3.0d0
    end do
  end do
  rowsum = 0.0d0
  do i = 1, n
    do j = 1, m
      rowsum(i) = rowsum(i) + b(i, j)
    end do
  end do
!$acc end kernels
  do i = 1, n
    s = 0.0d0
    do j = 1, m
      s = s + 3.0d0 * a(i, j)
      if (b(i, j) /= 3.0d0 * a(i, j)) nfail = nfail + 1
    end do
    if (abs(rowsum(i) - s) > 1.0d-9) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kernels_region
