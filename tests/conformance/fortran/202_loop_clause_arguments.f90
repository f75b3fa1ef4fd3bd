! Loop clause arguments: gang(static:4) and gang(static:*) on parallel loops, and gang(8),
! worker(4), vector(32) sizes on a kernels loop nest; host_data with if_present on data that is
! not present (no error, the host address is used).
program loop_clause_arguments
  implicit none
  integer, parameter :: n = 1000, m = 64
  real(8) :: a(n), b(m, 40)
  integer :: i, j, nfail
  nfail = 0
!$acc parallel loop gang(static:4) copyout(a)
  do i = 1, n
    a(i) = dble(i)
  end do
!$acc parallel loop gang(static:*) copy(a)
  do i = 1, n
    a(i) = a(i) + 0.5d0
  end do
!$acc kernels loop gang(8) copyout(b)
  do j = 1, 40
!$acc loop worker(4) vector(32)
    do i = 1, m
      b(i, j) = dble(i * j)
    end do
  end do
!$acc host_data use_device(a) if_present
  a(1) = -1.0d0
!$acc end host_data
  if (a(1) /= -1.0d0) nfail = nfail + 1
  do i = 2, n
    if (a(i) /= i + 0.5d0) nfail = nfail + 1
  end do
  do j = 1, 40
    do i = 1, m
      if (b(i, j) /= dble(i * j)) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program loop_clause_arguments
