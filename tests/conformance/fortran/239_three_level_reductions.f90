! Reductions at each level of a gang / worker / vector nest: the vector loop sums a row segment,
! the worker loop sums the segments of a plane, the gang loop sums the planes, plus a max
! reduction carried through the same nest; compared with the host.
program three_level_reductions
  implicit none
  integer, parameter :: ni = 12, nj = 10, nk = 96
  real(8) :: a(nk, nj, ni), total, plane, seg, big, want
  integer :: i, j, k, nfail
  nfail = 0
  do i = 1, ni
    do j = 1, nj
      do k = 1, nk
        a(k, j, i) = dble(mod(i * 31 + j * 7 + k * 3, 101)) / 10.0d0
      end do
    end do
  end do
  total = 0.0d0
  big = 0.0d0
!$acc parallel loop gang copyin(a) reduction(+:total) reduction(max:big) private(plane)
  do i = 1, ni
    plane = 0.0d0
!$acc loop worker reduction(+:plane) reduction(max:big) private(seg)
    do j = 1, nj
      seg = 0.0d0
!$acc loop vector reduction(+:seg) reduction(max:big)
      do k = 1, nk
        seg = seg + a(k, j, i)
        big = max(big, a(k, j, i))
      end do
      plane = plane + seg
    end do
    total = total + plane
  end do
  want = sum(a)
  if (abs(total - want) > 1.0d-9 * want .or. big /= maxval(a)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, total, want, big
  call exit(nfail)
end program three_level_reductions
