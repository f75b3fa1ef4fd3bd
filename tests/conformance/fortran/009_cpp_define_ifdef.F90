! The C preprocessor on .F90: object-like and function-like macros, #ifdef/#else/#endif,
! #if with an expression, #undef, and a macro expanded inside a directive clause.
#define N 200
#define TWICE(x) (2*(x))
#define USE_PLUS
program cpp_define_ifdef
  implicit none
  integer :: i, nfail, mode
  integer :: a(N), b(N)
  nfail = 0
#ifdef USE_PLUS
  mode = 1
#else
  mode = 2
#endif
#if N > 100 && TWICE(3) == 6
  mode = mode + 10
#endif
#undef USE_PLUS
#ifdef USE_PLUS
  mode = -1
#endif
  if (mode /= 11) then
    nfail = nfail + 1
    print *, 'FAIL mode', mode
  end if
  do i = 1, N
    a(i) = i
  end do
!$acc parallel loop copyin(a(1:N)) copyout(b(1:N))
  do i = 1, N
    b(i) = TWICE(a(i)) + 1
  end do
  do i = 1, N
    if (b(i) /= 2*i + 1) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program cpp_define_ifdef
