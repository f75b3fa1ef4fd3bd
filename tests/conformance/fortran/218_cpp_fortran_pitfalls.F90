! The C preprocessor on Fortran text: `//` is Fortran's concatenation, not a C++ comment; an
! apostrophe in a Fortran comment (don't) is not an unterminated C character literal; macros are
! case-sensitive (N is replaced, the variable n is not); a macro continued with backslash; a
! function-like macro with a parenthesised argument containing commas; and __LINE__.
#define N 8
#define GREETING 'hello'
#define AXPY(a, x, y) ((a) * (x) + (y))
#define LONG_SUM(p, q) \
  ((p) + \
   (q))
program cpp_fortran_pitfalls
  implicit none
  character(len=20) :: s
  integer :: n, arr(N), line, nfail
  nfail = 0
  ! don't let this apostrophe confuse the preprocessor
  n = 3
  s = GREETING // ' ' // 'world'   ! concatenation, not a comment
  if (s /= 'hello world') nfail = nfail + 1
  if (size(arr) /= 8 .or. n /= 3) nfail = nfail + 1
  if (AXPY(2, max(1, 5, 3), n) /= 13) nfail = nfail + 1
  if (LONG_SUM(n, 4) /= 7) nfail = nfail + 1
  line = __LINE__
  if (line /= 23) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, trim(s), line
  call exit(nfail)
end program cpp_fortran_pitfalls
