! A 5-point stencil on a 2-D grid with halo, written twice: with loops in a parallel loop
! collapse(2), and with array sections in a kernels region; both agree with the host.
program stencil_2d_sections
  implicit none
  integer, parameter :: n = 80, m = 60
  real(8) :: u(0:n + 1, 0:m + 1), r1(n, m), r2(n, m), w(n, m)
  integer :: i, j, nfail
  nfail = 0
  do j = 0, m + 1
    do i = 0, n + 1
      u(i, j) = cos(0.1d0 * i) * sin(0.07d0 * j)
    end do
  end do
!$acc parallel loop collapse(2) copyin(u) copyout(r1)
  do j = 1, m
    do i = 1, n
      r1(i, j) = 4.0d0 * u(i, j) - u(i - 1, j) - u(i + 1, j) - u(i, j - 1) - u(i, j + 1)
    end do
  end do
!$acc kernels copyin(u) copyout(r2)
  r2 = 4.0d0 * u(1:n, 1:m) - u(0:n - 1, 1:m) - u(2:n + 1, 1:m) - u(1:n, 0:m - 1) - u(1:n, 2:m + 1)
!$acc end kernels
  do j = 1, m
    do i = 1, n
      w(i, j) = 4.0d0 * u(i, j) - u(i - 1, j) - u(i + 1, j) - u(i, j - 1) - u(i, j + 1)
    end do
  end do
  if (maxval(abs(r1 - w)) > 1.0d-14 .or. maxval(abs(r2 - w)) > 1.0d-14) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program stencil_2d_sections
