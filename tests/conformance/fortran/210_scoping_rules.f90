! Scoping: a local declaration in an internal procedure hides the host's variable of the same name,
! a dummy argument hides a module variable, use-renamed names coexist with a local of the module
! name, and implicit none in a module applies to its contained procedures.
module scope_mod
  implicit none
  integer :: n = 100
  integer :: counter = 0
contains
  integer function bump(n)
    integer, intent(in) :: n
    counter = counter + n
    bump = counter
  end function bump
end module scope_mod

program scoping_rules
  use scope_mod, only: module_n => n, bump, counter
  implicit none
  integer :: n, nfail
  nfail = 0
  n = 5
  if (module_n /= 100) nfail = nfail + 1
  if (bump(n) /= 5 .or. bump(3) /= 8 .or. counter /= 8) nfail = nfail + 1
  call hide()
  if (n /= 5) nfail = nfail + 1
  call touch()
  if (n /= 6) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, n, counter
  call exit(nfail)
contains
  subroutine hide()
    integer :: n
    n = -1
    if (n /= -1) nfail = nfail + 1
  end subroutine hide
  subroutine touch()
    n = n + 1
  end subroutine touch
end program scoping_rules
