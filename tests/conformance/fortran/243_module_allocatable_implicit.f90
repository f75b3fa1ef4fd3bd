! Module allocatable arrays used in compute regions of module procedures without data clauses
! (implicit copy of the allocated array), then inside a data region of the caller (implicitly
! present), with bounds that are not 1.
module field_alloc
  implicit none
  real(8), allocatable :: f(:, :)
contains
  subroutine fill_field()
    integer :: i, j
!$acc parallel loop collapse(2)
    do j = lbound(f, 2), ubound(f, 2)
      do i = lbound(f, 1), ubound(f, 1)
        f(i, j) = dble(i * 100 + j)
      end do
    end do
  end subroutine fill_field
  subroutine scale_field(s)
    real(8), intent(in) :: s
    integer :: i, j
!$acc kernels
    do j = lbound(f, 2), ubound(f, 2)
      do i = lbound(f, 1), ubound(f, 1)
        f(i, j) = f(i, j) * s
      end do
    end do
!$acc end kernels
  end subroutine scale_field
end module field_alloc

program module_allocatable_implicit
  use field_alloc
  implicit none
  integer :: i, j, nfail
  nfail = 0
  allocate(f(-2:5, 3:7))
  call fill_field()
!$acc data copy(f)
  call scale_field(2.0d0)
  call scale_field(0.5d0)
  call scale_field(3.0d0)
!$acc end data
  do j = 3, 7
    do i = -2, 5
      if (f(i, j) /= 3.0d0 * (i * 100 + j)) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program module_allocatable_implicit
