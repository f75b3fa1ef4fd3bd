! A loop directive applied to a do concurrent (OpenACC 3.x: each index of the concurrent header
! counts as one loop, so collapse is implied): parallel loop gang vector over do concurrent with
! two indices, and acc loop with reduction on a one-index do concurrent.
! gfortran lacks this form (gfortran 12: "!$ACC LOOP cannot be a DO CONCURRENT loop").
program loop_on_do_concurrent
  implicit none
  integer, parameter :: n = 64, m = 48
  real(8) :: a(n, m), s
  integer :: i, j, nfail
  nfail = 0
!$acc parallel loop gang vector copyout(a)
  do concurrent (j = 1:m, i = 1:n)
    a(i, j) = dble(i * j)
  end do
  s = 0.0d0
!$acc parallel loop reduction(+:s) copyin(a)
  do concurrent (j = 1:m)
    s = s + a(n, j)
  end do
  do j = 1, m
    do i = 1, n
      if (a(i, j) /= dble(i * j)) nfail = nfail + 1
    end do
  end do
  if (s /= dble(n) * m * (m + 1) / 2) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program loop_on_do_concurrent
