! private and firstprivate of allocatable arrays: each gang gets its own copy with the original's
! bounds (private: contents undefined, filled per iteration; firstprivate: the host's values).
! gfortran lacks this: gfortran 12 ends in an internal compiler error (expand_oacc_for) on it.
program private_allocatable
  implicit none
  integer, parameter :: n = 200, m = 16
  real(8), allocatable :: work(:), base(:)
  real(8) :: out(n)
  integer :: i, k, nfail
  nfail = 0
  allocate(work(0:m - 1), base(m))
  base = [(dble(k), k = 1, m)]
!$acc parallel loop private(work) firstprivate(base) copyout(out)
  do i = 1, n
    do k = 0, m - 1
      work(k) = base(k + 1) * i
    end do
    out(i) = sum(work)
  end do
  do i = 1, n
    if (out(i) /= dble(i) * m * (m + 1) / 2) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program private_allocatable
