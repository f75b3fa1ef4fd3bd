! optional dummies with present(): omitted trailing arguments, keyword arguments skipping one,
! and an optional passed on to another optional dummy.
program optional_present
  implicit none
  integer :: nfail
  nfail = 0
  if (f(1) /= 1) nfail = nfail + 1
  if (f(1, 2) /= 3) nfail = nfail + 1
  if (f(1, c=10) /= 11) nfail = nfail + 1
  if (f(1, 2, 10) /= 13) nfail = nfail + 1
  if (g(5) /= -1) nfail = nfail + 1
  if (g(5, 7) /= 12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, f(1), f(1, 2), f(1, c=10), g(5), g(5, 7)
  call exit(nfail)
contains
  integer function f(a, b, c)
    integer, intent(in) :: a
    integer, intent(in), optional :: b, c
    f = a
    if (present(b)) f = f + b
    if (present(c)) f = f + c
  end function f
  integer function g(a, b)
    integer, intent(in) :: a
    integer, intent(in), optional :: b
    if (present(b)) then
      g = f(a, b)
    else
      g = pass_on(b)
    end if
  end function g
  integer function pass_on(b)
    integer, intent(in), optional :: b
    pass_on = -1
    if (present(b)) pass_on = b
  end function pass_on
end program optional_present
