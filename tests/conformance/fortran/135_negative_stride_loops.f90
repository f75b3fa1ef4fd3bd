! OpenACC loops with negative and non-unit steps (do i = n, 1, -1 and do i = 1, n, 3), and a
! collapse(2) nest whose inner loop counts down.
program negative_stride_loops
  implicit none
  integer, parameter :: n = 1001
  integer :: a(n), b(20, 30), i, j, nfail
  nfail = 0
  a = 0
!$acc parallel loop copy(a)
  do i = n, 1, -1
    a(i) = n - i
  end do
!$acc parallel loop copy(a)
  do i = 1, n, 3
    a(i) = -a(i)
  end do
!$acc parallel loop collapse(2) copyout(b)
  do j = 1, 30
    do i = 20, 1, -2
      b(i, j) = i * j
    end do
  end do
  do i = 1, n
    if (mod(i - 1, 3) == 0) then
      if (a(i) /= -(n - i)) nfail = nfail + 1
    else if (a(i) /= n - i) then
      nfail = nfail + 1
    end if
  end do
  do j = 1, 30
    do i = 2, 20, 2
      if (b(i, j) /= i * j) nfail = nfail + 1
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program negative_stride_loops
