! A parallel region (!$acc parallel ... !$acc end parallel) holding two !$acc loop loops, the
! second using the first's results, and a scalar assigned redundantly by every gang.
program parallel_region_loops
  implicit none
  integer, parameter :: n = 4096
  real(8) :: x(n), y(n), z(n)
  integer :: i, nfail
  nfail = 0
  x = [(dble(mod(i * 31, 97)), i = 1, n)]
!$acc parallel copyin(x) create(y) copyout(z)
!$acc loop
  do i = 1, n
    y(i) = x(i) * x(i)
  end do
!$acc loop
  do i = 1, n
    z(i) = y(i) - x(i)
  end do
!$acc end parallel
  do i = 1, n
    if (z(i) /= x(i) * x(i) - x(i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program parallel_region_loops
