! The executable directives init, set and shutdown in Fortran form
! on every device type) followed by compute regions that still work after re-initialisation.
! gfortran lacks the init, set and shutdown directives (gfortran 12 calls them unclassifiable).
program init_shutdown_set
  use openacc
  implicit none
  integer, parameter :: n = 256
  real(8) :: a(n)
  integer :: i, nfail
  nfail = 0
!$acc init
  a = 1.0d0
!$acc parallel loop copy(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
!$acc set default_async(1)
!$acc parallel loop copy(a) async
  do i = 1, n
    a(i) = a(i) * 2.0d0
  end do
!$acc wait
!$acc shutdown
!$acc init
!$acc serial copy(a)
  a(1) = a(1) + 100.0d0
!$acc end serial
  if (a(1) /= 104.0d0) nfail = nfail + 1
  do i = 2, n
    if (a(i) /= 2.0d0 * (1.0d0 + i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program init_shutdown_set
