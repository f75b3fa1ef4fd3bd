! _OPENACC is defined when compiling with OpenACC, to a yyyymm version of at least 201306 (2.0);
! code under #ifdef _OPENACC is compiled, the #else part is not.
program openacc_macro
  implicit none
  integer :: nfail, version
  nfail = 0
  version = 0
#ifdef _OPENACC
  version = _OPENACC
#else
  print *, 'FAIL _OPENACC is not defined'
  nfail = nfail + 1
#endif
  if (version < 201306) then
    nfail = nfail + 1
    print *, 'FAIL _OPENACC value', version
  end if
  if (mod(version, 100) < 1 .or. mod(version, 100) > 12) then
    nfail = nfail + 1
    print *, 'FAIL _OPENACC is not yyyymm', version
  end if
  call exit(nfail)
end program openacc_macro
