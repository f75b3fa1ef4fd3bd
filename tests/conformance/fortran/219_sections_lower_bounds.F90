! Data clauses on sections of arrays whose lower bounds are not 1: copy(a(0:n-1)) of a(0:n),
! copyin of a block of columns b(:, 2:3) of b(-1:m, 0:4), present of a sub-section inside a data
! region holding the whole array, update self of one column, and acc_is_present on the sections.
program sections_lower_bounds
  use openacc
  implicit none
  integer, parameter :: n = 50, m = 20
  real(8) :: a(0:n), b(-1:m, 0:4), c(-1:m)
  integer :: i, j, nfail
  nfail = 0
  a = -1.0d0
  do j = 0, 4
    do i = -1, m
      b(i, j) = i + 100.0d0 * j
    end do
  end do
!$acc parallel loop copy(a(0:n-1))
  do i = 0, n - 1
    a(i) = dble(i)
  end do
  if (a(n) /= -1.0d0) nfail = nfail + 1
  do i = 0, n - 1
    if (a(i) /= dble(i)) nfail = nfail + 1
  end do
!$acc parallel loop collapse(2) copyin(b(:, 2:3)) copyout(c)
  do i = -1, m
    do j = 2, 2
      c(i) = b(i, j) + b(i, j + 1)
    end do
  end do
  do i = -1, m
    if (c(i) /= 2 * i + 500.0d0) nfail = nfail + 1
  end do
!$acc data copy(b)
  if (.not. acc_is_present(b(:, 4)) .or. .not. acc_is_present(b(3:5, 1:2))) nfail = nfail + 1
!$acc parallel loop present(b(:, 1:1))
  do i = -1, m
    b(i, 1) = -b(i, 1)
  end do
!$acc update self(b(:, 1))
  if (b(m, 1) /= -(m + 100.0d0)) nfail = nfail + 1
!$acc end data
#ifndef ACCJIT_GFORTRAN_VALIDATION
  if (acc_is_present(b(:, 4))) nfail = nfail + 1
#endif
  if (b(-1, 0) /= -1.0d0 .or. b(m, 4) /= m + 400.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program sections_lower_bounds
