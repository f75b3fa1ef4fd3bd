! A reduction clause on the parallel construct with a gang loop inside, a reduction on a nested
! vector loop inside a gang loop (its variable private to each gang: a loop reduction variable
! with no data clause is shared by the construct's gangs), and a reduction variable reused by two
! consecutive loops.
program reduction_on_parallel
  implicit none
  integer, parameter :: n = 400, m = 300
  real(8) :: a(m, n), total, rowsum, want
  integer :: i, j, cnt, nfail
  nfail = 0
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(mod(i + 3 * j, 17)) * 0.25d0
    end do
  end do
  total = 0.0d0
  cnt = 0
!$acc parallel copyin(a) reduction(+:total, cnt)
!$acc loop gang private(rowsum)
  do j = 1, n
    rowsum = 0.0d0
!$acc loop vector reduction(+:rowsum)
    do i = 1, m
      rowsum = rowsum + a(i, j)
    end do
    total = total + rowsum
    cnt = cnt + 1
  end do
!$acc end parallel
  want = sum(a)
  if (abs(total - want) > 1.0d-9 * want .or. cnt /= n) nfail = nfail + 1
  total = 0.0d0
!$acc parallel loop copyin(a) reduction(+:total)
  do j = 1, n
    total = total + a(1, j)
  end do
!$acc parallel loop copyin(a) reduction(+:total)
  do j = 1, n
    total = total + a(m, j)
  end do
  if (abs(total - sum(a(1, :)) - sum(a(m, :))) > 1.0d-9) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, total, want, cnt
  call exit(nfail)
end program reduction_on_parallel
