! do concurrent inside a kernels region (treated as loop auto) and inside a parallel region (as
! loop independent), with two indices and a mask (141 puts a loop directive on one).
program do_concurrent_in_kernels
  implicit none
  integer, parameter :: n = 90, m = 70
  real(8) :: a(n, m), b(n, m)
  integer :: i, j, nfail
  nfail = 0
!$acc kernels copyout(a)
  do concurrent (j = 1:m, i = 1:n)
    a(i, j) = dble(i) / dble(j)
  end do
!$acc end kernels
  b = 0.0d0
!$acc parallel copyin(a) copy(b)
  do concurrent (j = 1:m, i = 1:n, a(i, j) > 1.0d0)
    b(i, j) = a(i, j)
  end do
!$acc end parallel
  do j = 1, m
    do i = 1, n
      if (a(i, j) /= dble(i) / dble(j)) nfail = nfail + 1
      if (b(i, j) /= merge(a(i, j), 0.0d0, a(i, j) > 1.0d0)) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program do_concurrent_in_kernels
