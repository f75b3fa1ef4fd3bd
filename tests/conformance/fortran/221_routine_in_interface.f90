! !$acc routine seq inside an interface body declares an external function as a device routine
! for its callers; the function itself carries the same directive. Also an assumed-shape dummy
! with lower bound 0 (a(0:)) indexed inside a parallel loop.
program routine_in_interface
  implicit none
  interface
    real(8) function damp(x, k)
!$acc routine seq
      real(8), intent(in) :: x
      integer, intent(in) :: k
    end function damp
  end interface
  integer, parameter :: n = 600
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i) * 0.1d0, i = 1, n)]
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, n
    b(i) = damp(a(i), mod(i, 4))
  end do
  do i = 1, n
    if (abs(b(i) - a(i) / (1.0d0 + mod(i, 4))) > 1.0d-15) nfail = nfail + 1
  end do
  call shift_zero(b, nfail)
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine shift_zero(v, nf)
    real(8), intent(inout) :: v(0:)
    integer, intent(inout) :: nf
    integer :: k
!$acc parallel loop copy(v)
    do k = 0, ubound(v, 1)
      v(k) = dble(k)
    end do
    if (v(0) /= 0.0d0 .or. v(ubound(v, 1)) /= dble(size(v) - 1)) nf = nf + 1
  end subroutine shift_zero
end program routine_in_interface

real(8) function damp(x, k)
  implicit none
!$acc routine seq
  real(8), intent(in) :: x
  integer, intent(in) :: k
  damp = x / (1.0d0 + k)
end function damp
