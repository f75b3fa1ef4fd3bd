! parallel loop gang vector on one loop, parallel loop gang with an inner loop vector, and
! loop worker vector on one loop, over a 2-D array.
program combined_gang_vector
  implicit none
  integer, parameter :: n = 300, m = 70
  real(8) :: a(m, n), b(m, n), v(n * m)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(i) * 0.5d0 + dble(j)
    end do
  end do
!$acc parallel loop gang vector copyout(v)
  do i = 1, n * m
    v(i) = dble(i) * 2.0d0
  end do
!$acc parallel loop gang copyin(a) copyout(b)
  do j = 1, n
!$acc loop vector
    do i = 1, m
      b(i, j) = a(i, j) + v(1)
    end do
  end do
!$acc parallel copy(b)
!$acc loop gang worker vector collapse(2)
  do j = 1, n
    do i = 1, m
      b(i, j) = b(i, j) * 2.0d0
    end do
  end do
!$acc end parallel
  do j = 1, n
    do i = 1, m
      if (b(i, j) /= 2.0d0 * (a(i, j) + 2.0d0)) nfail = nfail + 1
    end do
  end do
  if (v(n * m) /= 2.0d0 * n * m) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program combined_gang_vector
