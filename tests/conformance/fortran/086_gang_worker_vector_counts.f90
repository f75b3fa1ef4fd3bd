! num_gangs, num_workers and vector_length on parallel (constants and expressions), with gang,
! worker and vector loops on a 3-deep nest; results do not depend on the counts.
program gang_worker_vector_counts
  implicit none
  integer, parameter :: ni = 16, nj = 8, nk = 64
  real(8) :: a(nk, nj, ni)
  integer :: i, j, k, ng, nfail
  nfail = 0
  ng = 4
!$acc parallel num_gangs(ng) num_workers(2 * 2) vector_length(32) copyout(a)
!$acc loop gang
  do i = 1, ni
!$acc loop worker
    do j = 1, nj
!$acc loop vector
      do k = 1, nk
        a(k, j, i) = i * 10000 + j * 100 + k
      end do
    end do
  end do
!$acc end parallel
  do i = 1, ni
    do j = 1, nj
      do k = 1, nk
        if (a(k, j, i) /= i * 10000 + j * 100 + k) nfail = nfail + 1
      end do
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program gang_worker_vector_counts
