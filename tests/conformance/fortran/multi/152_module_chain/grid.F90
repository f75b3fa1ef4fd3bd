! The grid module of multi/152: an allocatable module array and its size, set by make_grid.
module grid
  implicit none
  integer :: npts = 0
  real(8), allocatable :: xs(:)
contains
  subroutine make_grid(n)
    integer, intent(in) :: n
    integer :: i
    npts = n
    allocate(xs(n))
    xs = [(dble(i) / n, i = 1, n)]
  end subroutine make_grid
end module grid
