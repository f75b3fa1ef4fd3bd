! expect: fail "not present"
! A present clause naming an array that no data construct or enter data put on the device is a
! runtime error (acc_error_not_present). gfortran's shared-memory host fallback does not fail.
program present_absent_fails
  implicit none
  integer, parameter :: n = 100
  real(8) :: a(n), b(n)
  integer :: i
  a = 1.0d0
!$acc data copyin(a)
!$acc parallel loop present(a, b)
  do i = 1, n
    b(i) = a(i)
  end do
!$acc end data
  print *, 'FAIL the present clause on b did not fail', b(1)
end program present_absent_fails
