! !$acc kernels loop (combined) with and without its !$acc end kernels loop line, including
! independent and a reduction clause.
program kernels_loop
  implicit none
  integer, parameter :: n = 5000
  integer :: a(n), i, nfail
  integer(8) :: s, want
  nfail = 0
!$acc kernels loop copyout(a)
  do i = 1, n
    a(i) = mod(i * 13, 101)
  end do
!$acc end kernels loop
  s = 0
!$acc kernels loop independent copyin(a) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  want = 0
  do i = 1, n
    if (a(i) /= mod(i * 13, 101)) nfail = nfail + 1
    want = want + mod(i * 13, 101)
  end do
  if (s /= want) then
    nfail = nfail + 1
    print *, 'FAIL s', s, want
  end if
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kernels_loop
