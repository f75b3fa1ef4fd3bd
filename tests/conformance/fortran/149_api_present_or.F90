! acc_present_or_copyin / acc_pcopyin and acc_present_or_create / acc_pcreate (2.0 names kept as
! aliases of acc_copyin / acc_create): a second call on present data does not copy again but, as
! since 2.5, adds one to the dynamic reference count, so two exit calls are needed to end it.
program api_present_or
  use openacc
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  call acc_present_or_copyin(a)
!$acc parallel loop present(a)
  do i = 1, n
    a(i) = a(i) + 1.0d0
  end do
  call acc_pcopyin(a)
  call acc_pcreate(b)
  call acc_present_or_create(b)
!$acc parallel loop present(a, b)
  do i = 1, n
    b(i) = a(i) * i
  end do
  ! b's dynamic count is 2: this copyout only decrements it (no copy back), so the kernel's
  ! values are fetched first (on a device with its own memory they are not on the host yet).
  call acc_update_self(b)
  call acc_copyout(b)
  if (.not. acc_is_present(b)) nfail = nfail + 1
  call acc_delete(b)
  call acc_update_self(a)
  call acc_delete(a)
  if (.not. acc_is_present(a)) nfail = nfail + 1
  call acc_delete(a)
  if (any(a /= 2.0d0)) nfail = nfail + 1
  do i = 1, n
    if (b(i) /= 2.0d0 * i) nfail = nfail + 1
  end do
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(b) .or. acc_is_present(a)) nfail = nfail + 1
#endif
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_present_or
