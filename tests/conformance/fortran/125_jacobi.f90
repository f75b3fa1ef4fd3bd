! A Jacobi iteration for the 2-D Laplace equation as codes write it: a data region around the
! iteration loop, a parallel loop collapse(2) with reduction(max:) on the change, a copy-back
! loop, checked step by step against the same iteration on the host.
program jacobi
  implicit none
  integer, parameter :: n = 64, m = 48, iters = 40
  real(8) :: a(0:n + 1, 0:m + 1), anew(0:n + 1, 0:m + 1), h(0:n + 1, 0:m + 1), hn(0:n + 1, 0:m + 1)
  real(8) :: err, herr
  integer :: i, j, it, nfail
  nfail = 0
  a = 0.0d0
  do j = 0, m + 1
    a(0, j) = sin(3.14159d0 * j / (m + 1))
  end do
  anew = a
  h = a
  hn = a
!$acc data copy(a) create(anew)
  do it = 1, iters
    err = 0.0d0
!$acc parallel loop collapse(2) reduction(max:err) present(a, anew)
    do j = 1, m
      do i = 1, n
        anew(i, j) = 0.25d0 * (a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))
        err = max(err, abs(anew(i, j) - a(i, j)))
      end do
    end do
!$acc parallel loop collapse(2) present(a, anew)
    do j = 1, m
      do i = 1, n
        a(i, j) = anew(i, j)
      end do
    end do
    herr = 0.0d0
    do j = 1, m
      do i = 1, n
        hn(i, j) = 0.25d0 * (h(i - 1, j) + h(i + 1, j) + h(i, j - 1) + h(i, j + 1))
        herr = max(herr, abs(hn(i, j) - h(i, j)))
      end do
    end do
    h(1:n, 1:m) = hn(1:n, 1:m)
    if (abs(err - herr) > 1.0d-14) nfail = nfail + 1
  end do
!$acc end data
  if (maxval(abs(a - h)) > 1.0d-14) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, err, herr
  call exit(nfail)
end program jacobi
