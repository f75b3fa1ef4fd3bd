! tile(8, 8) on a 2-D transpose, tile(*, 4) (the * size is chosen by the implementation), and tile
! on a loop with non-multiple trip counts.
program tile_clause
  implicit none
  integer, parameter :: n = 101, m = 77
  real(8) :: a(n, m), t(m, n)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = i + 1000.0d0 * j
    end do
  end do
!$acc parallel loop tile(8, 8) copyin(a) copyout(t)
  do j = 1, m
    do i = 1, n
      t(j, i) = a(i, j)
    end do
  end do
  do j = 1, m
    do i = 1, n
      if (t(j, i) /= a(i, j)) nfail = nfail + 1
    end do
  end do
!$acc parallel loop tile(*, 4) copy(a)
  do j = 1, m
    do i = 1, n
      a(i, j) = -a(i, j)
    end do
  end do
  if (a(n, m) /= -(n + 1000.0d0 * m) .or. a(1, 1) /= -1001.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program tile_clause
