! expect: compile-error "reduction" 8:31
! A reduction clause with an operator that is not one of Fortran's reduction operators is
! reported at the operator.
program reduction_bad_operator
  implicit none
  integer :: i, s
  s = 0
!$acc parallel loop reduction(frob:s)
  do i = 1, 10
    s = s + i
  end do
  print *, s
end program reduction_bad_operator
