! Allocatable arrays (1-D and 2-D with lower bounds) in data clauses, enter data after allocate
! and exit data before deallocate, and an allocatable reallocated with a different size between
! two data regions.
program allocatable_data
  implicit none
  real(8), allocatable :: u(:, :), v(:)
  integer :: i, j, n, nfail
  nfail = 0
  allocate(u(0:49, -2:37))
  u = 0.0d0
!$acc enter data copyin(u)
!$acc parallel loop collapse(2) present(u)
  do j = -2, 37
    do i = 0, 49
      u(i, j) = i - j
    end do
  end do
!$acc exit data copyout(u)
  do j = -2, 37
    do i = 0, 49
      if (u(i, j) /= i - j) nfail = nfail + 1
    end do
  end do
  deallocate(u)
  do n = 100, 300, 200
    if (allocated(v)) deallocate(v)
    allocate(v(n))
    v = 1.0d0
!$acc data copy(v)
!$acc parallel loop
    do i = 1, n
      v(i) = v(i) * i
    end do
!$acc end data
    if (sum(v) /= n * (n + 1) / 2.0d0 .or. size(v) /= n) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program allocatable_data
