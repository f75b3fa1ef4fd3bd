! expect: fail "not present"
! acc_copyout of an array that was never copied in is a runtime error (acc_error_not_present).
! gfortran's shared-memory host fallback does not fail.
program copyout_absent_fails
  use openacc
  implicit none
  real(8) :: a(64)
  a = 2.0d0
  call acc_copyout(a)
  print *, 'FAIL acc_copyout of absent data did not fail', a(1)
end program copyout_absent_fails
