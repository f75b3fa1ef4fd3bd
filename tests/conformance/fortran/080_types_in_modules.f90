! A derived type defined in a module with module procedures taking and returning it, a default
! component initialisation, a function returning a derived type, and an array-valued component
! updated through a subroutine.
module vec3_mod
  implicit none
  type :: vec3
    real(8) :: c(3) = 0.0d0
    integer :: tag = -1
  end type vec3
contains
  function add(a, b) result(r)
    type(vec3), intent(in) :: a, b
    type(vec3) :: r
    r%c = a%c + b%c
    r%tag = max(a%tag, b%tag)
  end function add
  real(8) function dot(a, b)
    type(vec3), intent(in) :: a, b
    dot = sum(a%c * b%c)
  end function dot
  subroutine scale(a, s)
    type(vec3), intent(inout) :: a
    real(8), intent(in) :: s
    a%c = a%c * s
  end subroutine scale
end module vec3_mod

program types_in_modules
  use vec3_mod
  implicit none
  type(vec3) :: u, v, w
  integer :: nfail
  nfail = 0
  if (u%tag /= -1 .or. any(u%c /= 0.0d0)) nfail = nfail + 1
  u%c = [1.0d0, 2.0d0, 3.0d0]
  v = vec3([4.0d0, 5.0d0, 6.0d0], 7)
  w = add(u, v)
  if (any(w%c /= [5.0d0, 7.0d0, 9.0d0]) .or. w%tag /= 7) nfail = nfail + 1
  if (dot(u, v) /= 32.0d0) nfail = nfail + 1
  call scale(w, 2.0d0)
  if (w%c(3) /= 18.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program types_in_modules
