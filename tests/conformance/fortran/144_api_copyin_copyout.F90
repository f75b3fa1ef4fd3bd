! acc_copyin / acc_copyout / acc_create / acc_delete on whole arrays and acc_is_present on them:
! data entered with the API is present for compute regions and leaves with the exit routines.
program api_copyin_copyout
  use openacc
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  b = 0.0d0
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(a)) nfail = nfail + 1
#endif
  call acc_copyin(a)
  call acc_create(b)
  if (.not. acc_is_present(a) .or. .not. acc_is_present(b)) nfail = nfail + 1
!$acc parallel loop present(a, b)
  do i = 1, n
    b(i) = a(i) * 3.0d0
  end do
  call acc_copyout(b)
  call acc_delete(a)
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(a) .or. acc_is_present(b)) nfail = nfail + 1
#endif
  do i = 1, n
    if (b(i) /= 3.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_copyin_copyout
