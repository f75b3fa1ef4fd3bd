! use with only:, a rename (local => module name), a renamed procedure, and two modules that
! export the same name kept apart by renaming.
module mod_a
  implicit none
  integer, parameter :: size_a = 7
  integer :: value = 11
contains
  integer function scale(x)
    integer, intent(in) :: x
    scale = 3 * x
  end function scale
end module mod_a

module mod_b
  implicit none
  integer :: value = 22
end module mod_b

program use_only_rename
  use mod_a, only: size_a, triple => scale, value_a => value
  use mod_b, only: value
  implicit none
  integer :: nfail
  nfail = 0
  if (size_a /= 7) nfail = nfail + 1
  if (triple(5) /= 15) then
    nfail = nfail + 1
    print *, 'FAIL triple', triple(5)
  end if
  if (value_a /= 11 .or. value /= 22) then
    nfail = nfail + 1
    print *, 'FAIL values', value_a, value
  end if
  value_a = value_a + value
  if (value_a /= 33) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program use_only_rename
