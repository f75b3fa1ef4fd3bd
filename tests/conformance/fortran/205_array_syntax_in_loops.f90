! Array syntax inside the body of a parallel loop (device code): whole rows and columns assigned
! with sections (b(:, j) = 2 * a(:, j)), a section sum with sum(), and an elemental intrinsic on a
! section, per iteration of a gang loop.
program array_syntax_in_loops
  implicit none
  integer, parameter :: n = 40, m = 100
  real(8) :: a(n, m), b(n, m), colsum(m)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i) - 0.5d0 * j
    end do
  end do
!$acc parallel loop gang copyin(a) copyout(b, colsum)
  do j = 1, m
    b(:, j) = 2.0d0 * a(:, j)
    b(1:n:2, j) = abs(b(1:n:2, j))
    colsum(j) = sum(b(:, j))
  end do
  do j = 1, m
    do i = 1, n
      if (mod(i, 2) == 1) then
        if (b(i, j) /= abs(2.0d0 * a(i, j))) nfail = nfail + 1
      else if (b(i, j) /= 2.0d0 * a(i, j)) then
        nfail = nfail + 1
      end if
    end do
    if (abs(colsum(j) - sum(b(:, j))) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program array_syntax_in_loops
