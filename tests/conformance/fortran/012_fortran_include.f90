! The Fortran INCLUDE line (not the preprocessor): INCLUDE 'params.Fh' brings parameters into the
! specification part of the main program and of an internal function, in a .f90 file.
program fortran_include
  implicit none
  include 'params.Fh'
  real(8), allocatable :: a(:)
  integer :: i, nfail
  nfail = 0
  allocate(a(n_elems))
  do i = 1, n_elems
    a(i) = 1.0d0 / (1.0d0 + i)
  end do
  if (abs(total(a) - sum(a)) > tol) then
    nfail = nfail + 1
    print *, 'FAIL total', total(a), sum(a)
  end if
  if (n_calls /= 1 .or. size(a) /= 1000) then
    nfail = nfail + 1
    print *, 'FAIL params'
  end if
  call exit(nfail)
contains
  real(8) function total(x)
    INCLUDE "params.Fh"
    real(8), intent(in) :: x(:)
    integer :: k
    total = 0.0d0
!$acc parallel loop reduction(+:total) copyin(x)
    do k = 1, n_elems
      total = total + x(k)
    end do
  end function total
end program fortran_include
