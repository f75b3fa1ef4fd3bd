! expect: compile-error "nosuch_params.Fh" 5:11
! A Fortran INCLUDE line naming a file that does not exist is reported at the file name's quote.
program missing_fortran_include
  implicit none
  include 'nosuch_params.Fh'
  print *, 1
end program missing_fortran_include
