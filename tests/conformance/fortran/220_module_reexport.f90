! Use association through a chain: module physics_b uses constants_a and re-exports its names
! (public by default) and renames one privately; the program uses only physics_b and sees
! constants_a's variable and procedure; a private entity of physics_b stays hidden (a local of the
! same name in the program is a different variable).
module constants_a
  implicit none
  real(8), parameter :: c_light = 299792458.0d0
  integer :: hits = 0
contains
  subroutine count_hit()
    hits = hits + 1
  end subroutine count_hit
end module constants_a

module physics_b
  use constants_a
  implicit none
  private :: secret
  integer :: secret = 42
contains
  real(8) function energy(mass)
    real(8), intent(in) :: mass
    call count_hit()
    energy = mass * c_light**2
  end function energy
end module physics_b

program module_reexport
  use physics_b
  implicit none
  integer :: secret, nfail
  real(8) :: e
  nfail = 0
  secret = 7
  e = energy(2.0d0)
  e = energy(1.0d0)
  if (e /= c_light**2) nfail = nfail + 1
  call count_hit()
  if (hits /= 3 .or. secret /= 7) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, hits, e
  call exit(nfail)
end program module_reexport
