! expect: compile-error "dup_name" 6:14
! A name declared twice in one scoping unit is an error at the second declaration's name.
program duplicate_declaration
  implicit none
  integer :: dup_name
  real(8) :: dup_name
  dup_name = 1
  print *, dup_name
end program duplicate_declaration
