! An orphaned loop: a routine gang whose body is a loop gang, called from a parallel region (the
! caller's gangs share the routine's iterations), and a routine vector with a vector reduction.
module orphan_mod
  implicit none
contains
  subroutine fill(a, n, v)
!$acc routine gang
    integer, intent(in) :: n
    real(8), intent(inout) :: a(n)
    real(8), intent(in) :: v
    integer :: i
!$acc loop gang vector
    do i = 1, n
      a(i) = v * i
    end do
  end subroutine fill
end module orphan_mod

program routine_gang_orphan_loop
  use orphan_mod
  implicit none
  integer, parameter :: n = 5000
  real(8) :: a(n)
  integer :: i, nfail
  nfail = 0
  a = 0.0d0
!$acc parallel num_gangs(8) copy(a)
  call fill(a, n, 0.5d0)
!$acc end parallel
  do i = 1, n
    if (a(i) /= 0.5d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program routine_gang_orphan_loop
