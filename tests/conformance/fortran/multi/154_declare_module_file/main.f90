! A module in another file (state.f90) with !$acc declare create of its arrays; the main fills
! them, updates the device copy and runs the module's kernels subroutine.
program declare_module_file
  use state
  implicit none
  integer :: i, nfail
  nfail = 0
  u = [(dble(i), i = 1, nstate)]
!$acc update device(u)
  call advance(0.5d0)
!$acc update self(v)
  do i = 1, nstate
    if (v(i) /= 0.5d0 * i + 1.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program declare_module_file
