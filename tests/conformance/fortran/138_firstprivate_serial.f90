! serial and parallel constructs with firstprivate arrays and scalars, and scalars used in a
! compute construct without clauses (implicitly firstprivate): the region's changes stay local.
program firstprivate_serial
  implicit none
  integer, parameter :: n = 100
  integer :: k, base(4), out(n), i, nfail
  nfail = 0
  k = 10
  base = [1, 2, 3, 4]
!$acc serial firstprivate(base, k) copyout(out)
  do i = 1, n
    k = k + base(mod(i, 4) + 1)
    out(i) = k
  end do
  base = 0
!$acc end serial
  if (k /= 10 .or. any(base /= [1, 2, 3, 4])) nfail = nfail + 1
  k = 10
  do i = 1, n
    k = k + base(mod(i, 4) + 1)
    if (out(i) /= k) nfail = nfail + 1
  end do
  k = 7
!$acc parallel loop copyout(out)
  do i = 1, n
    out(i) = i * k
  end do
  if (out(n) /= 7 * n) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program firstprivate_serial
