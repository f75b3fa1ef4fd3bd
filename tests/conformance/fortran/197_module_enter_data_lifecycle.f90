! A module owning allocatable 2-D fields with init / step / finish procedures: init allocates and
! enters data, step runs kernels on present data, finish copies out and deallocates (the usual
! shape of a simulation code).
module sim_mod
  implicit none
  real(8), allocatable :: u(:, :), unew(:, :)
  integer :: nx, ny
contains
  subroutine sim_init(n, m)
    integer, intent(in) :: n, m
    integer :: i, j
    nx = n
    ny = m
    allocate(u(0:nx + 1, 0:ny + 1), unew(0:nx + 1, 0:ny + 1))
    do j = 0, ny + 1
      do i = 0, nx + 1
        u(i, j) = dble(i + j)
      end do
    end do
    unew = u
!$acc enter data copyin(u, unew)
  end subroutine sim_init
  subroutine sim_step()
    integer :: i, j
!$acc parallel loop collapse(2) present(u, unew)
    do j = 1, ny
      do i = 1, nx
        unew(i, j) = 0.25d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
!$acc parallel loop collapse(2) present(u, unew)
    do j = 1, ny
      do i = 1, nx
        u(i, j) = unew(i, j)
      end do
    end do
  end subroutine sim_step
  subroutine sim_finish()
!$acc exit data copyout(u) delete(unew)
  end subroutine sim_finish
end module sim_mod

program module_enter_data_lifecycle
  use sim_mod
  implicit none
  integer :: k, i, j, nfail
  nfail = 0
  call sim_init(30, 20)
  do k = 1, 5
    call sim_step()
  end do
  call sim_finish()
  ! a linear field i + j is harmonic: every Jacobi step leaves it unchanged
  do j = 0, ny + 1
    do i = 0, nx + 1
      if (abs(u(i, j) - dble(i + j)) > 1.0d-12) nfail = nfail + 1
    end do
  end do
  deallocate(u, unew)
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program module_enter_data_lifecycle
