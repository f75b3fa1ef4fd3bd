! serial ... end serial (one gang, one worker, one vector) runs a loop with a true dependence
! correctly; serial loop does a prefix sum; both checked against the host.
program serial_constructs
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), p(n), want
  integer :: i, nfail
  integer :: fib(40)
  nfail = 0
  a = [(1.0d0 / i, i = 1, n)]
!$acc serial copy(fib)
  fib(1) = 1
  fib(2) = 1
  do i = 3, 40
    fib(i) = fib(i - 1) + fib(i - 2)
  end do
!$acc end serial
  if (fib(40) /= 102334155) nfail = nfail + 1
!$acc serial loop copyin(a) copyout(p)
  do i = 1, n
    if (i == 1) then
      p(i) = a(i)
    else
      p(i) = a(i)
    end if
  end do
!$acc serial copy(p)
  do i = 2, n
    p(i) = p(i - 1) + p(i)
  end do
!$acc end serial
  want = 0.0d0
  do i = 1, n
    want = want + a(i)
    if (abs(p(i) - want) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program serial_constructs
