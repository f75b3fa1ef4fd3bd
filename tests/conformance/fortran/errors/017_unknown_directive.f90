! expect: compile-error "frobulate" 7:7
! An unknown directive name after the !$acc sentinel is reported at the name.
program unknown_directive
  implicit none
  integer :: a(4)
  a = 1
!$acc frobulate copy(a)
  print *, a(1)
end program unknown_directive
