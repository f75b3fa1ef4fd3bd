! A main program using a module from a sibling file (physics.f90): `accjit run main.f90
! physics.f90`, and the module is also found beside the main file by its name.
program use_sibling_module
  use physics, only: gravity, fall_distance
  implicit none
  integer, parameter :: n = 500
  real(8) :: t(n), d(n)
  integer :: i, nfail
  nfail = 0
  t = [(0.01d0 * i, i = 1, n)]
!$acc parallel loop copyin(t) copyout(d)
  do i = 1, n
    d(i) = fall_distance(t(i))
  end do
  do i = 1, n
    if (abs(d(i) - 0.5d0 * gravity * t(i)**2) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program use_sibling_module
