! External procedures defined after the program: a function declared by its type in the caller
! (`real(8) :: poly`), one declared `external`, and a subroutine called without an interface.
program external_procedures
  implicit none
  real(8) :: poly
  integer, external :: isum
  real(8) :: x, y(5)
  integer :: nfail, k(6)
  nfail = 0
  x = 1.5d0
  if (abs(poly(x) - (2.0d0 * x * x - 3.0d0 * x + 1.0d0)) > 1.0d-14) then
    nfail = nfail + 1
    print *, 'FAIL poly', poly(x)
  end if
  k = [1, 2, 3, 4, 5, 6]
  if (isum(k, 6) /= 21) then
    nfail = nfail + 1
    print *, 'FAIL isum', isum(k, 6)
  end if
  call fill_squares(y, 5)
  if (y(4) /= 16.0d0 .or. y(5) /= 25.0d0) then
    nfail = nfail + 1
    print *, 'FAIL fill', y
  end if
  call exit(nfail)
end program external_procedures

real(8) function poly(x)
  implicit none
  real(8), intent(in) :: x
  poly = 2.0d0 * x * x - 3.0d0 * x + 1.0d0
end function poly

integer function isum(v, n)
  implicit none
  integer, intent(in) :: n, v(n)
  isum = sum(v)
end function isum

subroutine fill_squares(y, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: y(n)
  integer :: i
  do i = 1, n
    y(i) = dble(i * i)
  end do
end subroutine fill_squares
