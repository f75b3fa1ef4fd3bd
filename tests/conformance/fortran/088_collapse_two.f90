! collapse(2) over a 2-D nest with non-unit lower bounds and a loop-dependent expression, with a
! reduction across both loops.
program collapse_two
  implicit none
  integer, parameter :: n = 120, m = 90
  real(8) :: a(0:n, -5:m)
  real(8) :: s, want
  integer :: i, j, nfail
  nfail = 0
  s = 0.0d0
!$acc parallel loop collapse(2) copyout(a) reduction(+:s)
  do j = -5, m
    do i = 0, n
      a(i, j) = dble(i * j) / 7.0d0
      s = s + a(i, j)
    end do
  end do
  want = 0.0d0
  do j = -5, m
    do i = 0, n
      want = want + dble(i * j) / 7.0d0
      if (a(i, j) /= dble(i * j) / 7.0d0) nfail = nfail + 1
    end do
  end do
  if (abs(s - want) > 1.0d-9 * abs(want)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, s, want
  call exit(nfail)
end program collapse_two
