! declare in a subroutine with the other data clauses: declare copy of an inout dummy, declare
! copyout of an out dummy, declare present of a dummy already on the device, and declare create of
! an automatic array; each takes effect for the subroutine's duration.
program declare_clauses_procedure
  implicit none
  integer, parameter :: n = 700
  real(8) :: a(n), b(n), c(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  c = 2.0d0
!$acc data copyin(c)
  call work(a, b, c, n)
!$acc end data
  do i = 1, n
    if (a(i) /= 2.0d0 * i + 1.0d0 .or. b(i) /= 2.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine work(x, y, z, m)
    integer, intent(in) :: m
    real(8), intent(inout) :: x(m)
    real(8), intent(out) :: y(m)
    real(8), intent(in) :: z(m)
    real(8) :: tmp(m)
    integer :: k
!$acc declare copy(x) copyout(y) present(z) create(tmp)
!$acc parallel loop
    do k = 1, m
      tmp(k) = x(k) * z(k)
    end do
!$acc parallel loop
    do k = 1, m
      y(k) = tmp(k)
      x(k) = tmp(k) + 1.0d0
    end do
  end subroutine work
end program declare_clauses_procedure
