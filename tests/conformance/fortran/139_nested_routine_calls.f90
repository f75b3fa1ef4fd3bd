! Nested routine calls on the device: a routine seq calling another routine seq with array and
! scalar arguments, a recursive-free chain of three levels, called from a gang loop.
module chain_mod
  implicit none
contains
  real(8) function level3(x)
!$acc routine seq
    real(8), intent(in) :: x
    level3 = x * x + 1.0d0
  end function level3
  real(8) function level2(v, k)
!$acc routine seq
    real(8), intent(in) :: v(*)
    integer, intent(in) :: k
    level2 = level3(v(k)) + level3(v(k + 1))
  end function level2
  subroutine level1(v, k, out)
!$acc routine seq
    real(8), intent(in) :: v(*)
    integer, intent(in) :: k
    real(8), intent(out) :: out
    out = level2(v, k) * 0.5d0
  end subroutine level1
end module chain_mod

program nested_routine_calls
  use chain_mod
  implicit none
  integer, parameter :: n = 1000
  real(8) :: v(n + 1), r(n)
  integer :: i, nfail
  nfail = 0
  v = [(dble(i) * 0.01d0, i = 1, n + 1)]
!$acc parallel loop gang vector copyin(v) copyout(r)
  do i = 1, n
    call level1(v, i, r(i))
  end do
  do i = 1, n
    if (abs(r(i) - 0.5d0 * (v(i)**2 + v(i + 1)**2 + 2.0d0)) > 1.0d-13) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program nested_routine_calls
