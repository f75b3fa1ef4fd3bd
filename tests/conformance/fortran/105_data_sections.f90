! Array sections in data clauses: a(lb:ub) of a 1-D array, a(:, j1:j2) (contiguous columns) and
! a(:, j) of a 2-D array (Fortran data clauses take contiguous sections only); the parts outside
! a copied-out section keep their host values.
program data_sections
  implicit none
  integer, parameter :: n = 100, m = 40
  real(8) :: v(n), a(n, m)
  integer :: i, j, nfail
  nfail = 0
  v = -1.0d0
  a = -1.0d0
!$acc parallel loop copyout(v(21:80))
  do i = 21, 80
    v(i) = dble(i)
  end do
!$acc parallel loop collapse(2) copyout(a(:, 11:30))
  do j = 11, 30
    do i = 1, n
      a(i, j) = i + 1000.0d0 * j
    end do
  end do
  do j = 1, m
!$acc parallel loop copy(a(:, j))
    do i = 41, 60
      a(i, j) = a(i, j) + 0.5d0
    end do
  end do
  do i = 1, n
    if (i >= 21 .and. i <= 80) then
      if (v(i) /= dble(i)) nfail = nfail + 1
    else if (v(i) /= -1.0d0) then
      nfail = nfail + 1
    end if
  end do
  do j = 1, m
    do i = 1, n
      if (j >= 11 .and. j <= 30) then
        if (a(i, j) /= i + 1000.0d0 * j + merge(0.5d0, 0.0d0, i >= 41 .and. i <= 60)) nfail = nfail + 1
      else if (a(i, j) /= -1.0d0 + merge(0.5d0, 0.0d0, i >= 41 .and. i <= 60)) then
        nfail = nfail + 1
      end if
    end do
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program data_sections
