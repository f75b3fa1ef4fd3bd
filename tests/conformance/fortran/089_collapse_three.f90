! collapse(3) over a 3-D array, with loop steps of 1 and bounds taken from variables, writing
! a(k, j, i) in column-major order.
program collapse_three
  implicit none
  integer :: ni, nj, nk, i, j, k, nfail
  integer, allocatable :: a(:, :, :)
  nfail = 0
  ni = 11
  nj = 13
  nk = 17
  allocate(a(nk, nj, ni))
!$acc parallel loop collapse(3) copyout(a)
  do i = 1, ni
    do j = 1, nj
      do k = 1, nk
        a(k, j, i) = (i - 1) * nj * nk + (j - 1) * nk + k
      end do
    end do
  end do
  do i = 1, ni
    do j = 1, nj
      do k = 1, nk
        if (a(k, j, i) /= (i - 1) * nj * nk + (j - 1) * nk + k) nfail = nfail + 1
      end do
    end do
  end do
  if (sum(a) /= ni * nj * nk * (ni * nj * nk + 1) / 2) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program collapse_three
