! routine vector and routine worker: a routine holding a loop vector (a row sum) called from a gang
! loop, and a routine worker with a loop worker called from a gang loop.
module row_ops
  implicit none
contains
  subroutine row_sum(a, m, s)
!$acc routine vector
    integer, intent(in) :: m
    real(8), intent(in) :: a(m)
    real(8), intent(out) :: s
    integer :: k
    s = 0.0d0
!$acc loop vector reduction(+:s)
    do k = 1, m
      s = s + a(k)
    end do
  end subroutine row_sum
  subroutine row_scale(a, m, f)
!$acc routine worker
    integer, intent(in) :: m
    real(8), intent(inout) :: a(m)
    real(8), intent(in) :: f
    integer :: k
!$acc loop worker
    do k = 1, m
      a(k) = a(k) * f
    end do
  end subroutine row_scale
end module row_ops

program routine_vector_worker
  use row_ops
  implicit none
  integer, parameter :: n = 64, m = 500
  real(8) :: a(m, n), s(n)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(i + j) / m
    end do
  end do
!$acc parallel loop gang copy(a) copyout(s)
  do j = 1, n
    call row_scale(a(:, j), m, 2.0d0)
    call row_sum(a(:, j), m, s(j))
  end do
  do j = 1, n
    if (abs(s(j) - 2.0d0 * sum([(dble(i + j) / m, i = 1, m)])) > 1.0d-10) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program routine_vector_worker
