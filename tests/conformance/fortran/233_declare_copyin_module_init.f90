! declare copyin of an initialised module array: the device copy holds the initial values from the
! start of the program, so a routine seq reading it from device code sees them without any update;
! a where construct in a kernels region then uses the table.
module coeff_table
  implicit none
  real(8) :: weights(4) = [0.1d0, 0.2d0, 0.3d0, 0.4d0]
!$acc declare copyin(weights)
contains
  real(8) function weigh(x, k)
!$acc routine seq
    real(8), intent(in) :: x
    integer, intent(in) :: k
    weigh = x * weights(mod(k - 1, 4) + 1)
  end function weigh
end module coeff_table

program declare_copyin_module_init
  use coeff_table
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, n
    b(i) = weigh(a(i), i)
  end do
!$acc kernels copy(b)
  where (b > 100.0d0)
    b = 100.0d0
  end where
!$acc end kernels
  do i = 1, n
    if (abs(b(i) - min(100.0d0, i * weights(mod(i - 1, 4) + 1))) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program declare_copyin_module_init
