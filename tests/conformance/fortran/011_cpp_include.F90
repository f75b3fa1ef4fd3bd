! #include "fdefs.h" (a file beside the program): its object and function-like macros size an
! array and compute inside an OpenACC loop.
#include "fdefs.h"
program cpp_include
  implicit none
  integer :: i, nfail
  real(8) :: a(NSIZE), b(NSIZE)
  nfail = 0
#ifndef HAVE_FDEFS
  nfail = 100
  print *, 'FAIL fdefs.h not included'
#endif
  do i = 1, NSIZE
    a(i) = 0.25d0 * i - 3.0d0
  end do
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, NSIZE
    b(i) = SQUARE(a(i)) + 1.0d0
  end do
  do i = 1, NSIZE
    if (abs(b(i) - (a(i)*a(i) + 1.0d0)) > 1.0d-12) then
      nfail = nfail + 1
      if (nfail <= 3) print *, 'FAIL', i, b(i)
    end if
  end do
  if (size(a) /= 64) then
    nfail = nfail + 1
    print *, 'FAIL size', size(a)
  end if
  call exit(nfail)
end program cpp_include
