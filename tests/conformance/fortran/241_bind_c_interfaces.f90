! Calling C library functions through bind(c) interfaces (iso_c_binding): abs and labs with value
! arguments, pow from libm on c_double values, and an internal Fortran function with bind(c)
! (no binding name is allowed there) called through its Fortran name.
program bind_c_interfaces
  use iso_c_binding, only: c_int, c_long, c_double
  implicit none
  interface
    integer(c_int) function c_abs(x) bind(c, name='abs')
      import :: c_int
      integer(c_int), value :: x
    end function c_abs
    integer(c_long) function c_labs(x) bind(c, name='labs')
      import :: c_long
      integer(c_long), value :: x
    end function c_labs
    real(c_double) function c_pow(x, y) bind(c, name='pow')
      import :: c_double
      real(c_double), value :: x, y
    end function c_pow
  end interface
  integer :: nfail
  nfail = 0
  if (c_abs(-17_c_int) /= 17) nfail = nfail + 1
  if (c_labs(-12345678901_c_long) /= 12345678901_c_long) nfail = nfail + 1
  if (abs(c_pow(2.0_c_double, 0.5_c_double) - sqrt(2.0d0)) > 1.0d-15) nfail = nfail + 1
  if (twice_c(21_c_int) /= 42) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  integer(c_int) function twice_c(k) bind(c)
    integer(c_int), value :: k
    twice_c = 2 * k
  end function twice_c
end program bind_c_interfaces
