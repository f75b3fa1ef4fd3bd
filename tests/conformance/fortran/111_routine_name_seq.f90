! !$acc routine(name) seq in the caller's specification part for an external function and an
! external subroutine, called from a parallel loop.
program routine_name_seq
  implicit none
  integer, parameter :: n = 3000
  real(8) :: a(n), b(n)
  real(8), external :: poly3
  external :: clip
  integer :: i, nfail
!$acc routine(poly3) seq
!$acc routine(clip) seq
  nfail = 0
  a = [(dble(i) / n - 0.5d0, i = 1, n)]
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, n
    b(i) = poly3(a(i))
    call clip(b(i), 0.1d0)
  end do
  do i = 1, n
    if (b(i) /= min(0.1d0, 1.0d0 + a(i) * (2.0d0 + a(i) * (3.0d0 + 4.0d0 * a(i))))) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program routine_name_seq

real(8) function poly3(x)
  implicit none
!$acc routine seq
  real(8), intent(in) :: x
  poly3 = 1.0d0 + x * (2.0d0 + x * (3.0d0 + 4.0d0 * x))
end function poly3

subroutine clip(v, hi)
  implicit none
!$acc routine seq
  real(8), intent(inout) :: v
  real(8), intent(in) :: hi
  v = min(v, hi)
end subroutine clip
