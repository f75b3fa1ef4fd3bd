! expect: fail "not present"
! update device of an array that is not present (and without if_present) is a runtime error.
! gfortran's shared-memory host fallback does not fail.
program update_absent_fails
  implicit none
  real(8) :: a(32), b(32)
  a = 1.0d0
  b = 2.0d0
!$acc enter data copyin(b)
!$acc update device(a)
  print *, 'FAIL update of absent data did not fail', a(1)
!$acc exit data delete(b)
end program update_absent_fails
