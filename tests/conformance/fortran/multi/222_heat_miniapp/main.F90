! A small application over three files as codes are laid out: a configuration type (config.F90),
! a solver module with data-region lifetime procedures (heat_solver.F90) and this driver: explicit
! 2-D heat steps until the change drops below a tolerance (do while), compared step for step with
! the same scheme run sequentially on the host.
program heat_miniapp
  use config_mod
  use heat_solver
  implicit none
  type(config) :: cfg
  real(8), allocatable :: h(:, :), hn(:, :)
  real(8) :: change, hchange
  integer :: steps, i, j, nfail
  nfail = 0
  cfg = make_config(48, 40)
  call solver_init(cfg)
  allocate(h(0:cfg%nx + 1, 0:cfg%ny + 1), hn(0:cfg%nx + 1, 0:cfg%ny + 1))
  h = 0.0d0
  h(0, :) = 1.0d0
  hn = h
  steps = 0
  change = huge(1.0d0)
  do while (change > cfg%tol .and. steps < cfg%max_steps)
    change = solver_step(cfg)
    hchange = 0.0d0
    do j = 1, cfg%ny
      do i = 1, cfg%nx
        hn(i, j) = h(i, j) + cfg%alpha * (h(i - 1, j) + h(i + 1, j) + h(i, j - 1) + h(i, j + 1) - 4.0d0 * h(i, j))
        hchange = max(hchange, abs(hn(i, j) - h(i, j)))
      end do
    end do
    h(1:cfg%nx, 1:cfg%ny) = hn(1:cfg%nx, 1:cfg%ny)
    if (abs(change - hchange) > 1.0d-13) nfail = nfail + 1
    steps = steps + 1
  end do
  call solver_finish()
  if (steps < 2 .or. maxval(abs(temperature - h)) > 1.0d-12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, steps, change
  call exit(nfail)
end program heat_miniapp
