! do concurrent with one and two indices, with a step, and with a mask expression; outside any
! OpenACC construct (plain Fortran) and inside a parallel construct (treated as loop independent).
program do_concurrent_forms
  implicit none
  integer, parameter :: n = 30, m = 20
  real(8) :: a(n, m), b(n)
  integer :: i, j, nfail
  nfail = 0
  do concurrent (i = 1:n, j = 1:m)
    a(i, j) = i + 0.5d0 * j
  end do
  do concurrent (i = 1:n:2)
    b(i) = -1.0d0
  end do
  do concurrent (i = 2:n:2)
    b(i) = 1.0d0
  end do
  do concurrent (i = 1:n, b(i) > 0.0d0)
    b(i) = b(i) + i
  end do
  do j = 1, m
    do i = 1, n
      if (a(i, j) /= i + 0.5d0 * j) nfail = nfail + 1
    end do
  end do
  do i = 1, n
    if (mod(i, 2) == 1 .and. b(i) /= -1.0d0) nfail = nfail + 1
    if (mod(i, 2) == 0 .and. b(i) /= 1.0d0 + i) nfail = nfail + 1
  end do
!$acc parallel copy(a)
  do concurrent (i = 1:n, j = 1:m)
    a(i, j) = 2 * a(i, j)
  end do
!$acc end parallel
  if (a(n, m) /= 2 * (n + 0.5d0 * m) .or. a(1, 1) /= 3.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program do_concurrent_forms
