! !$acc declare copyin of a module parameter-like table and declare create of a module scalar
! array, read by a module routine seq that reaches them as globals from device code.
module table_mod
  implicit none
  integer, parameter :: nt = 16
  real(8) :: table(nt)
!$acc declare create(table)
contains
  real(8) function lookup(k)
!$acc routine seq
    integer, intent(in) :: k
    lookup = table(mod(k - 1, nt) + 1)
  end function lookup
end module table_mod

program declare_module_copyin_routine
  use table_mod
  implicit none
  integer, parameter :: n = 2000
  real(8) :: r(n)
  integer :: i, nfail
  nfail = 0
  table = [(dble(i * i), i = 1, nt)]
!$acc update device(table)
!$acc parallel loop copyout(r)
  do i = 1, n
    r(i) = lookup(i) + i
  end do
  do i = 1, n
    if (r(i) /= dble((mod(i - 1, nt) + 1)**2) + i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program declare_module_copyin_routine
