! The data API on array sections and with a byte count: acc_copyin(a(lo:hi)), acc_is_present on a
! section and on an element with a length, acc_copyout of a section, and acc_copyin(x, bytes).
program api_sections
  use openacc
  implicit none
  integer, parameter :: n = 400
  real(8) :: a(n), x(50)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  x = 2.0d0
  call acc_copyin(a(101:300))
  if (.not. acc_is_present(a(101:300)) .or. .not. acc_is_present(a(150:160))) nfail = nfail + 1
  if (.not. acc_is_present(a(101), 8 * 200)) nfail = nfail + 1
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(a(1:100)) .or. acc_is_present(a(250:350))) nfail = nfail + 1
#endif
!$acc parallel loop present(a(101:300))
  do i = 101, 300
    a(i) = -a(i)
  end do
  call acc_copyout(a(101:300))
  call acc_copyin(x, 8 * 50)
  if (.not. acc_is_present(x)) nfail = nfail + 1
  call acc_delete(x, 8 * 50)
  do i = 1, n
    if (i >= 101 .and. i <= 300) then
      if (a(i) /= -dble(i)) nfail = nfail + 1
    else if (a(i) /= dble(i)) then
      nfail = nfail + 1
    end if
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program api_sections
