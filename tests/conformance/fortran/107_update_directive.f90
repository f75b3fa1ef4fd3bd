! update device(...) after a host change, update self(...) and update host(...) to fetch device
! results in the middle of a data region, on whole arrays and on sections (every check holds
! whether or not the device shares the host's memory).
program update_directive
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  b = 0.0d0
!$acc data copyin(a) create(b)
!$acc parallel loop present(a, b)
  do i = 1, n
    b(i) = a(i) + i
  end do
!$acc update self(b)
  if (b(n) /= 1.0d0 + n) nfail = nfail + 1
  a(1:n/2) = 10.0d0
!$acc update device(a(1:n/2))
!$acc parallel loop present(a, b)
  do i = 1, n
    b(i) = a(i) * 2
  end do
!$acc update host(b(1:n/2))
  if (b(1) /= 20.0d0 .or. b(n / 2) /= 20.0d0) nfail = nfail + 1
!$acc update self(b(n/2+1:n))
  if (b(n) /= 2.0d0) nfail = nfail + 1
!$acc end data
  if (nfail /= 0) print *, 'FAIL', nfail, b(1), b(n)
  call exit(nfail)
end program update_directive
