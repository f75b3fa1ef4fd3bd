! External procedures in another file (kernels.f90) called without a module: a subroutine with
! explicit-shape dummies holding a parallel loop, and a function declared by its type here.
program external_procedures_file
  implicit none
  integer, parameter :: n = 64, m = 32
  real(8) :: a(n, m), b(n, m)
  real(8) :: frobenius
  integer :: i, j, nfail
  nfail = 0
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i - j) * 0.1d0
    end do
  end do
  call scale_matrix(a, b, n, m, 3.0d0)
  do j = 1, m
    do i = 1, n
      if (b(i, j) /= 3.0d0 * a(i, j)) nfail = nfail + 1
    end do
  end do
  if (abs(frobenius(b, n, m) - sqrt(sum(b * b))) > 1.0d-10) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program external_procedures_file
