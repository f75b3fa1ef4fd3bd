! Derived types with scalar and fixed-size array components, nested types, structure constructors,
! arrays of derived type, component access in expressions, and a type passed to a procedure.
module shapes
  implicit none
  type :: point
    real(8) :: x, y
  end type point
  type :: polygon
    integer :: n
    type(point) :: v(8)
    character(len=8) :: name
  end type polygon
contains
  real(8) function area(pg)
    type(polygon), intent(in) :: pg
    integer :: k, k1
    area = 0.0d0
    do k = 1, pg%n
      k1 = mod(k, pg%n) + 1
      area = area + pg%v(k)%x * pg%v(k1)%y - pg%v(k1)%x * pg%v(k)%y
    end do
    area = abs(area) / 2
  end function area
end module shapes

program derived_types
  use shapes
  implicit none
  type(polygon) :: sq
  type(point) :: pts(3)
  integer :: i, nfail
  nfail = 0
  sq%n = 4
  sq%name = 'square'
  sq%v(1) = point(0.0d0, 0.0d0)
  sq%v(2) = point(2.0d0, 0.0d0)
  sq%v(3) = point(2.0d0, 2.0d0)
  sq%v(4)%x = 0.0d0
  sq%v(4)%y = 2.0d0
  if (abs(area(sq) - 4.0d0) > 1.0d-14) nfail = nfail + 1
  do i = 1, 3
    pts(i) = point(dble(i), dble(i * i))
  end do
  if (sum(pts%y) /= 14.0d0 .or. pts(2)%x /= 2.0d0) nfail = nfail + 1
  if (sq%name /= 'square' .or. sq%v(3)%y /= 2.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, area(sq)
  call exit(nfail)
end program derived_types
