! Preprocessor lines with spaces after `#` (`#   ifdef`), #ifndef, #if defined(...) || ..., #elif,
! nested conditionals, and -D-style defaults set with #ifndef.
#ifndef LEVEL
#  define LEVEL 2
#endif
program cpp_spaced_directives
  implicit none
  integer :: picked, nfail
  nfail = 0
  picked = 0
#   ifdef LEVEL
#     if LEVEL == 1
  picked = 1
#     elif LEVEL == 2
  picked = 2
#     else
  picked = 3
#     endif
#   endif
  if (picked /= 2) then
    nfail = nfail + 1
    print *, 'FAIL picked', picked
  end if
#if defined(NOT_DEFINED_ANYWHERE) || defined(_OPENACC)
  picked = picked + 100
#endif
#  ifndef _OPENACC
  picked = -1
#  endif
  if (picked /= 102) then
    nfail = nfail + 1
    print *, 'FAIL after _OPENACC', picked
  end if
  call exit(nfail)
end program cpp_spaced_directives
