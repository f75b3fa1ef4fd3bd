! Three files: the main uses solver (solver.F90), which uses grid (grid.F90); the files are given
! in any order and compiled in the order of their uses. Preprocessed (.F90) with a -D-style default.
#ifndef NPOINTS
#define NPOINTS 256
#endif
program module_chain
  use solver
  use grid, only: npts, xs
  implicit none
  integer :: i, nfail
  real(8) :: r(NPOINTS)
  nfail = 0
  call make_grid(NPOINTS)
  call relax(r)
  if (npts /= NPOINTS) nfail = nfail + 1
  do i = 1, npts
    if (abs(r(i) - 2.0d0 * xs(i) * xs(i)) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program module_chain
