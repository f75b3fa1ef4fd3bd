! host_data use_device(a) ... end host_data: inside, `a` names the device copy, which is passed to
! a routine taking device data (here a routine that is itself a compute construct with deviceptr);
! on a shared-memory device the addresses coincide.
program host_data_prog
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
!$acc data copy(a)
!$acc host_data use_device(a)
  call double_on_device(a, n)
!$acc end host_data
!$acc end data
  do i = 1, n
    if (a(i) /= 2.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine double_on_device(d, m)
    integer, intent(in) :: m
    real(8) :: d(m)
    integer :: k
!$acc parallel loop deviceptr(d)
    do k = 1, m
      d(k) = 2.0d0 * d(k)
    end do
  end subroutine double_on_device
end program host_data_prog
