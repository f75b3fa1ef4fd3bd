! private on a loop for a scalar temporary and for a small array (each iteration's copy is its
! own), and private on a parallel construct for a gang-private scalar.
program private_clause
  implicit none
  integer, parameter :: n = 2000
  real(8) :: a(n), b(n), t, w(4)
  integer :: i, k, nfail
  nfail = 0
  a = [(dble(i) / 4.0d0, i = 1, n)]
!$acc parallel loop private(t, w) copyin(a) copyout(b)
  do i = 1, n
    t = a(i) * a(i)
    do k = 1, 4
      w(k) = t + k
    end do
    b(i) = sum(w) - 4.0d0 * t
  end do
  do i = 1, n
    if (b(i) /= 10.0d0) nfail = nfail + 1
  end do
!$acc parallel num_gangs(8) private(t) copy(b)
  t = 2.0d0
!$acc loop gang
  do i = 1, n
    b(i) = b(i) * t
  end do
!$acc end parallel
  if (any(b /= 20.0d0)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program private_clause
