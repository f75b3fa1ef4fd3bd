! A directive continued over several lines: `!$acc parallel loop &` then `!$acc& clause` and
! `!$acc & clause` lines, a clause argument list split across lines, and an end line.
program directive_continuation
  implicit none
  integer, parameter :: n = 500
  real(8) :: a(n), b(n), c(n)
  real(8) :: s
  integer :: i, nfail
  nfail = 0
  do i = 1, n
    a(i) = cos(0.01d0 * i)
    b(i) = sin(0.02d0 * i)
  end do
  s = 0.0d0
!$acc parallel loop &
!$acc& copyin(a, &
!$acc&        b) &
!$acc & copyout(c) &
!$acc   reduction(+:s)
  do i = 1, n
    c(i) = a(i) * b(i)
    s = s + c(i)
  end do
!$acc end parallel loop
  do i = 1, n
    if (abs(c(i) - a(i) * b(i)) > 1.0d-14) nfail = nfail + 1
  end do
  if (abs(s - sum(a * b)) > 1.0d-10) then
    nfail = nfail + 1
    print *, 'FAIL s', s
  end if
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program directive_continuation
