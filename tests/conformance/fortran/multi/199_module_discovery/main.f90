! Module discovery: only main.f90 is given to `accjit run` (run-files below); the modules it uses
! are found beside it, by file name (constants.f90 defines module constants) and by content
! (the module kernels_lib is defined in lib_code.f90, whose name differs), with kernels_lib itself
! using constants.
! run-files: main.f90
program module_discovery
  use constants, only: nvals, scale
  use kernels_lib, only: apply_scale
  implicit none
  real(8) :: v(nvals)
  integer :: i, nfail
  nfail = 0
  v = [(dble(i), i = 1, nvals)]
  call apply_scale(v)
  do i = 1, nvals
    if (v(i) /= scale * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program module_discovery
