! An internal function of the main program with !$acc routine seq, called from a parallel loop;
! it takes everything it uses as arguments (device code reaches no host-associated variables).
program internal_routine
  implicit none
  integer, parameter :: n = 1500
  real(8) :: x(n), y(n)
  integer :: i, nfail
  nfail = 0
  x = [(0.002d0 * i, i = 1, n)]
!$acc parallel loop copyin(x) copyout(y)
  do i = 1, n
    y(i) = horner(x(i), 1.0d0, -0.5d0, 0.25d0)
  end do
  do i = 1, n
    if (abs(y(i) - (1.0d0 - 0.5d0 * x(i) + 0.25d0 * x(i)**2)) > 1.0d-14) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  real(8) function horner(t, c0, c1, c2)
!$acc routine seq
    real(8), intent(in) :: t, c0, c1, c2
    horner = c0 + t * (c1 + t * c2)
  end function horner
end program internal_routine
