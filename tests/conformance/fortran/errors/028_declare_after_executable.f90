! expect: compile-error "declare" 8:7
! declare belongs in a specification part; after an executable statement it is reported at the
! directive name.
program declare_after_executable
  implicit none
  real(8) :: a(10)
  a = 1.0d0
!$acc declare copyin(a)
  print *, a(1)
end program declare_after_executable
