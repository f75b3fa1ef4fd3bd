! expect: compile-error "not_there" 9:30
! use ..., only: a name the module does not define is reported at that name.
module small_mod
  implicit none
  integer :: here = 1
end module small_mod

program use_only_missing_name
  use small_mod, only: here, not_there
  implicit none
  print *, here
end program use_only_missing_name
