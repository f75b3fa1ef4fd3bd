! The data construct (!$acc data ... !$acc end data) with copy, copyin, copyout and create; two
! compute regions inside share the device copies; results reach the host at end data.
program data_construct
  implicit none
  integer, parameter :: n = 8000
  real(8) :: x(n), y(n), z(n), tmp(n)
  integer :: i, nfail
  nfail = 0
  x = [(0.5d0 * i, i = 1, n)]
  y = 1.0d0
!$acc data copyin(x) copy(y) copyout(z) create(tmp)
!$acc parallel loop present(x, tmp)
  do i = 1, n
    tmp(i) = x(i) * 3.0d0
  end do
!$acc parallel loop present(x, y, z, tmp)
  do i = 1, n
    z(i) = tmp(i) - x(i)
    y(i) = y(i) + z(i)
  end do
!$acc end data
  do i = 1, n
    if (z(i) /= 2.0d0 * x(i) .or. y(i) /= 1.0d0 + 2.0d0 * x(i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program data_construct
