! expect: compile-error "atomic" 8:7
! An !$acc end atomic line with no atomic construct open is reported at the `end` after the sentinel.
program end_atomic_alone
  implicit none
  integer :: x
  x = 0
  x = x + 1
!$acc end atomic
  print *, x
end program end_atomic_alone
