! Large saved arrays declared in the main program (save puts them in static storage, so codes
! declare multi-megabyte arrays there and expect no stack limit; gfortran -fopenacc puts unsaved
! ones on the stack): three arrays of 2**20 reals (8 MiB each) through a data region and a
! reduction, plus a 64 KiB local array in a subroutine.
program large_main_arrays
  implicit none
  integer, parameter :: n = 2**20
  real(8), save :: a(n), b(n), c(n)
  real(8) :: s
  integer :: i, nfail
  nfail = 0
  do i = 1, n
    a(i) = 1.0d0 / i
    b(i) = dble(mod(i, 7))
  end do
  s = 0.0d0
!$acc data copyin(a, b) copyout(c)
!$acc parallel loop reduction(+:s)
  do i = 1, n
    c(i) = a(i) * b(i)
    s = s + c(i)
  end do
!$acc end data
  if (abs(s - sum(a * b)) > 1.0d-9 * s) nfail = nfail + 1
  if (c(n) /= a(n) * b(n) .or. c(7) /= 0.0d0) nfail = nfail + 1
  call medium(nfail)
  if (nfail /= 0) print *, 'FAIL', nfail, s
  call exit(nfail)
contains
  subroutine medium(nf)
    integer, intent(inout) :: nf
    real(8) :: w(8192)
    integer :: k
    w = [(dble(k), k = 1, 8192)]
    if (sum(w) /= 8192.0d0 * 8193.0d0 / 2) nf = nf + 1
  end subroutine medium
end program large_main_arrays
