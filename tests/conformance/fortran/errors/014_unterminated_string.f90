! expect: compile-error "unterminated" 6:12
! A character literal that is not closed before the end of the line (and not continued) is
! reported at its opening quote.
program unterminated_string
  implicit none
  print *, 'abc
end program unterminated_string
