! Interface blocks: an explicit interface for an external function, a generic interface in a module
! resolving by argument type (integer, real(8), array), and a procedure passed as an argument
! (a dummy procedure with an abstract-free interface block).
module generic_mod
  implicit none
  interface twice
    module procedure twice_int, twice_real, twice_array
  end interface twice
contains
  integer function twice_int(k)
    integer, intent(in) :: k
    twice_int = 2 * k
  end function twice_int
  real(8) function twice_real(x)
    real(8), intent(in) :: x
    twice_real = 2.0d0 * x
  end function twice_real
  function twice_array(v) result(r)
    real(8), intent(in) :: v(:)
    real(8) :: r(size(v))
    r = 2.0d0 * v
  end function twice_array
  real(8) function integrate(f, a, b, n)
    interface
      real(8) function f(x)
        real(8), intent(in) :: x
      end function f
    end interface
    real(8), intent(in) :: a, b
    integer, intent(in) :: n
    integer :: i
    real(8) :: h
    h = (b - a) / n
    integrate = 0.5d0 * (f(a) + f(b))
    do i = 1, n - 1
      integrate = integrate + f(a + i * h)
    end do
    integrate = integrate * h
  end function integrate
end module generic_mod

program interfaces_generics
  use generic_mod
  implicit none
  interface
    real(8) function cube(x)
      real(8), intent(in) :: x
    end function cube
  end interface
  real(8) :: v(3)
  integer :: nfail
  nfail = 0
  if (twice(21) /= 42 .or. twice(1.25d0) /= 2.5d0) nfail = nfail + 1
  v = twice([1.0d0, 2.0d0, 3.0d0])
  if (any(v /= [2.0d0, 4.0d0, 6.0d0])) nfail = nfail + 1
  if (cube(3.0d0) /= 27.0d0) nfail = nfail + 1
  if (abs(integrate(cube, 0.0d0, 1.0d0, 1000) - 0.25d0) > 1.0d-6) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program interfaces_generics

real(8) function cube(x)
  implicit none
  real(8), intent(in) :: x
  cube = x * x * x
end function cube
