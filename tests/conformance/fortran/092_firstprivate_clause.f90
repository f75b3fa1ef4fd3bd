! firstprivate copies the host value into each gang's private copy: a scalar offset and a small
! array; changes inside the region do not reach the host.
program firstprivate_clause
  implicit none
  integer, parameter :: n = 1500
  real(8) :: b(n), offset, coef(3)
  integer :: i, nfail
  nfail = 0
  offset = 7.5d0
  coef = [1.0d0, -2.0d0, 0.5d0]
!$acc parallel loop firstprivate(offset, coef) copyout(b)
  do i = 1, n
    b(i) = offset + coef(1) + coef(2) * i + coef(3) * i * i
  end do
!$acc parallel firstprivate(offset) num_gangs(1)
  offset = offset + 100.0d0
!$acc end parallel
  if (offset /= 7.5d0) nfail = nfail + 1
  do i = 1, n
    if (b(i) /= 7.5d0 + 1.0d0 - 2.0d0 * i + 0.5d0 * i * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program firstprivate_clause
