! kernels must keep loops with dependences correct: a first-order recurrence a(i) = a(i-1) + b(i),
! a loop reading ahead of its write (c(i) = c(i+1) * 0.5, an anti-dependence), a loop auto over a
! recurrence in a parallel region, and an independent loop next to them.
program kernels_dependences
  implicit none
  integer, parameter :: n = 3000
  real(8) :: a(0:n), b(n), c(n + 1), d(n), wa(0:n), wc(n + 1)
  integer :: i, nfail
  nfail = 0
  b = [(1.0d0 / i, i = 1, n)]
  c = [(dble(i), i = 1, n + 1)]
  a(0) = 1.0d0
  wa = a
  wc = c
!$acc kernels copy(a, c) copyin(b) copyout(d)
  do i = 1, n
    a(i) = a(i - 1) + b(i)
  end do
  do i = 1, n
    c(i) = c(i + 1) * 0.5d0
  end do
  do i = 1, n
    d(i) = 2.0d0 * b(i)
  end do
!$acc end kernels
  do i = 1, n
    wa(i) = wa(i - 1) + b(i)
    wc(i) = wc(i + 1) * 0.5d0
  end do
  if (maxval(abs(a - wa)) > 1.0d-12 .or. any(c /= wc) .or. any(d /= 2.0d0 * b)) nfail = nfail + 1
  a(0) = 0.0d0
!$acc parallel copy(a) copyin(b)
!$acc loop auto
  do i = 1, n
    a(i) = a(i - 1) * 0.5d0 + b(i)
  end do
!$acc end parallel
  wa(0) = 0.0d0
  do i = 1, n
    wa(i) = wa(i - 1) * 0.5d0 + b(i)
  end do
  if (maxval(abs(a - wa)) > 1.0d-12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kernels_dependences
