! expect: compile-error "nosuch_file.h" 3:10
! A preprocessor #include of a file that does not exist is reported at the opening quote.
#include "nosuch_file.h"
program missing_cpp_include
  implicit none
  print *, 1
end program missing_cpp_include
