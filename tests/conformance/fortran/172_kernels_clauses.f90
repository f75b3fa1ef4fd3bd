! Clauses of the kernels construct: num_gangs, num_workers, vector_length, async, wait, if,
! default(present) and a data clause, with the region's end line.
program kernels_clauses
  implicit none
  integer, parameter :: n = 4000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
!$acc enter data copyin(a) create(b)
!$acc kernels num_gangs(16) num_workers(2) vector_length(64) async(1) present(a, b)
  do i = 1, n
    b(i) = a(i) * 0.5d0
  end do
!$acc end kernels
!$acc kernels wait(1) if(n > 0) default(present)
  do i = 1, n
    b(i) = b(i) + a(i)
  end do
!$acc end kernels
!$acc exit data copyout(b) delete(a)
  do i = 1, n
    if (b(i) /= 1.5d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kernels_clauses
