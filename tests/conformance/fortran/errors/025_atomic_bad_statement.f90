! expect: compile-error "atomic" 11:5
! The statement after atomic update must update its variable with one of the allowed forms;
! `x = y + 1` does not read x and is reported at the statement's first token.
program atomic_bad_statement
  implicit none
  integer :: x, y
  x = 0
  y = 1
!$acc parallel copy(x)
!$acc atomic update
    x = y + 1
!$acc end parallel
  print *, x
end program atomic_bad_statement
