! async(n) on compute constructs and update, the wait directive with and without a queue list,
! wait(n) as a clause on a later construct, and async without an argument.
program async_wait
  implicit none
  integer, parameter :: n = 20000
  real(8) :: a(n), b(n), c(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
!$acc data copyin(a) create(b, c)
!$acc parallel loop async(1) present(a, b)
  do i = 1, n
    b(i) = 2.0d0 * a(i)
  end do
!$acc parallel loop async(2) present(a, c)
  do i = 1, n
    c(i) = a(i) + 1.0d0
  end do
!$acc parallel loop wait(1, 2) async(3) present(b, c)
  do i = 1, n
    c(i) = c(i) + b(i)
  end do
!$acc update self(c) async(3)
!$acc wait(3)
!$acc parallel loop async present(b)
  do i = 1, n
    b(i) = -b(i)
  end do
!$acc wait
!$acc update self(b)
!$acc end data
  do i = 1, n
    if (c(i) /= 3.0d0 * i + 1.0d0 .or. b(i) /= -2.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program async_wait
