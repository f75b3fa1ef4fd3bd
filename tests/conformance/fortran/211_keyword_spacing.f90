! Keyword spellings with and without blanks: go to / goto, end do / enddo, end if / endif,
! else if / elseif, double precision, select case / end select, in out as intent(in out), end
! function / endfunction, and kind= / len= keywords in type specs.
program keyword_spacing
  implicit none
  double precision :: d
  integer(kind=4) :: i, s, nfail
  character(len=4) :: w
  nfail = 0
  s = 0
  do i = 1, 5
    if (i == 1) then
      s = s + 1
    elseif (i == 2) then
      s = s + 10
    else if (i == 3) then
      s = s + 100
    endif
  enddo
  if (s /= 111) nfail = nfail + 1
  i = 0
10 i = i + 1
  if (i < 3) go to 10
  if (i < 4) goto 10
  if (i /= 4) nfail = nfail + 1
  d = 0.5d0
  call twice(d)
  if (d /= 1.0d0) nfail = nfail + 1
  w = 'ab'
  selectcase (w)
  case ('ab')
    s = 1
  case default
    s = 2
  endselect
  if (s /= 1 .or. plus1(1) /= 2) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine twice(x)
    double precision, intent(in out) :: x
    x = 2 * x
  endsubroutine twice
  integer function plus1(k)
    integer, intent(in) :: k
    plus1 = k + 1
  endfunction plus1
end program keyword_spacing
