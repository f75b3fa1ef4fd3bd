! !$acc parallel loop with copyin/copyout over a 1-D array and its !$acc end parallel loop line,
! then the same loop without the end line (it is optional).
program parallel_loop
  implicit none
  integer, parameter :: n = 10000
  real(8) :: a(n), b(n), c(n)
  integer :: i, nfail
  nfail = 0
  do i = 1, n
    a(i) = sin(0.001d0 * i)
  end do
!$acc parallel loop copyin(a) copyout(b)
  do i = 1, n
    b(i) = 2.0d0 * a(i) + 1.0d0
  end do
!$acc end parallel loop
!$acc parallel loop copyin(a, b) copyout(c)
  do i = 1, n
    c(i) = b(i) - a(i)
  end do
  do i = 1, n
    if (abs(b(i) - (2.0d0 * a(i) + 1.0d0)) > 1.0d-14 .or. abs(c(i) - (a(i) + 1.0d0)) > 1.0d-14) then
      nfail = nfail + 1
      if (nfail <= 3) print *, 'FAIL', i, b(i), c(i)
    end if
  end do
  call exit(nfail)
end program parallel_loop
