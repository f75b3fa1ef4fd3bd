! expect: fail "error stop"
! `error stop` ends the program with a non-zero status and "ERROR STOP" on stderr, from inside
! a function that detects an invalid argument.
program error_stop_prog
  implicit none
  real(8) :: r
  r = checked_sqrt(4.0d0)
  if (r /= 2.0d0) print *, 'FAIL sqrt', r
  r = checked_sqrt(-1.0d0)
  print *, 'FAIL after error stop', r
contains
  real(8) function checked_sqrt(x)
    real(8), intent(in) :: x
    if (x < 0.0d0) error stop
    checked_sqrt = sqrt(x)
  end function checked_sqrt
end program error_stop_prog
