! routine clauses nohost (the routine is only compiled for the device; it is only called from
! device code here) and bind(name) (device calls of g go to the named device routine f, which
! computes the same value here so the result is defined either way).
! gfortran lacks bind on routine (gfortran 12: "Failed to match clause").
module bind_mod
  implicit none
contains
  real(8) function f(x)
!$acc routine seq
    real(8), intent(in) :: x
    f = 2.0d0 * x + 1.0d0
  end function f
  real(8) function g(x)
!$acc routine seq bind(f)
    real(8), intent(in) :: x
    g = 2.0d0 * x + 1.0d0
  end function g
  real(8) function dev_only(x)
!$acc routine seq nohost
    real(8), intent(in) :: x
    dev_only = x * x
  end function dev_only
end module bind_mod

program routine_bind_nohost
  use bind_mod
  implicit none
  integer, parameter :: n = 400
  real(8) :: r(n), s(n)
  integer :: i, nfail
  nfail = 0
!$acc parallel loop copyout(r, s)
  do i = 1, n
    r(i) = g(dble(i))
    s(i) = dev_only(dble(i))
  end do
  do i = 1, n
    if (r(i) /= 2.0d0 * i + 1.0d0 .or. s(i) /= dble(i) * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program routine_bind_nohost
