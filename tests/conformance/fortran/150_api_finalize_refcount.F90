! Dynamic reference counts through the API: two acc_copyin calls need two acc_delete calls (the
! data stays present after the first), while acc_copyout_finalize / acc_delete_finalize end it
! at once.
program api_finalize_refcount
  use openacc
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  b = 2.0d0
  call acc_copyin(a)
  call acc_copyin(a)
  call acc_delete(a)
  if (.not. acc_is_present(a)) nfail = nfail + 1
  call acc_delete(a)
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(a)) nfail = nfail + 1
#endif
  call acc_copyin(b)
  call acc_copyin(b)
!$acc parallel loop present(b)
  do i = 1, n
    b(i) = b(i) + i
  end do
  call acc_copyout_finalize(b)
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(b)) nfail = nfail + 1
#endif
  do i = 1, n
    if (b(i) /= 2.0d0 + i) nfail = nfail + 1
  end do
  call acc_create(a)
  call acc_create(a)
  call acc_delete_finalize(a)
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(a)) nfail = nfail + 1
#endif
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_finalize_refcount
