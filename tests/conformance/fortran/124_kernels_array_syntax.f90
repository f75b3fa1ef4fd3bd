! Array syntax inside a kernels region: whole-array assignment, a section assignment, intrinsic
! elemental functions on arrays and a sum() reduction, all offloaded by kernels.
program kernels_array_syntax
  implicit none
  integer, parameter :: n = 5000
  real(8) :: a(n), b(n), c(n), s
  integer :: i, nfail
  nfail = 0
  a = [(0.001d0 * i, i = 1, n)]
!$acc kernels copyin(a) create(b) copyout(c, s)
  b = 2.0d0 * a + 1.0d0
  c = sqrt(b) - a
  c(1:10) = 0.0d0
  s = sum(c)
!$acc end kernels
  do i = 1, n
    if (i <= 10) then
      if (c(i) /= 0.0d0) nfail = nfail + 1
    else if (abs(c(i) - (sqrt(2.0d0 * a(i) + 1.0d0) - a(i))) > 1.0d-14) then
      nfail = nfail + 1
    end if
  end do
  if (abs(s - sum(c)) > 1.0d-9) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kernels_array_syntax
