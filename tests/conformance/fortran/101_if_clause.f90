! The if clause on compute and data constructs takes a Fortran logical: if(.true.) and if(.false.)
! both compute the right result (a false if runs the region on the host), with a logical variable
! and an expression as the condition.
program if_clause
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n)
  logical :: use_dev
  integer :: i, nfail, trip
  nfail = 0
  do trip = 1, 2
    use_dev = trip == 1
    a = 1.0d0
!$acc parallel loop if(use_dev) copy(a)
    do i = 1, n
      a(i) = a(i) + i
    end do
!$acc data copy(a) if(n > 10 .and. use_dev)
!$acc kernels if(.not. use_dev .or. trip > 0)
    do i = 1, n
      a(i) = 2 * a(i)
    end do
!$acc end kernels
!$acc end data
    do i = 1, n
      if (a(i) /= 2.0d0 * (1.0d0 + i)) nfail = nfail + 1
    end do
  end do
!$acc serial if(.false.) copy(a)
  a(1) = -1.0d0
!$acc end serial
  if (a(1) /= -1.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program if_clause
