! An optional dummy of a routine seq called from device code: present() on the device returns what
! it would on the host (OpenACC 2.17.1), with the optional argument given and omitted.
module opt_mod
  implicit none
contains
  real(8) function shifted(x, shift)
!$acc routine seq
    real(8), intent(in) :: x
    real(8), intent(in), optional :: shift
    if (present(shift)) then
      shifted = x + shift
    else
      shifted = x
    end if
  end function shifted
end module opt_mod

program optional_in_routine
  use opt_mod
  implicit none
  integer, parameter :: n = 500
  real(8) :: a(n), b(n), c(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
!$acc parallel loop copyin(a) copyout(b, c)
  do i = 1, n
    b(i) = shifted(a(i), 0.5d0)
    c(i) = shifted(a(i))
  end do
  do i = 1, n
    if (b(i) /= i + 0.5d0 .or. c(i) /= dble(i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program optional_in_routine
