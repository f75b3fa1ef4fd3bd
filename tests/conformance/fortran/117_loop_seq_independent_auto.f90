! loop seq (a recurrence that must stay sequential), loop independent (asserting no dependence)
! and loop auto inside parallel and kernels regions.
program loop_seq_independent_auto
  implicit none
  integer, parameter :: n = 200, m = 100
  real(8) :: a(m, n), b(n)
  integer :: i, j, nfail
  nfail = 0
!$acc parallel copyout(a)
!$acc loop gang independent
  do j = 1, n
    a(1, j) = dble(j)
!$acc loop seq
    do i = 2, m
      a(i, j) = a(i - 1, j) * 0.5d0 + 1.0d0
    end do
  end do
!$acc end parallel
!$acc kernels copyin(a) copyout(b)
!$acc loop auto
  do j = 1, n
    b(j) = a(m, j)
  end do
!$acc end kernels
  do j = 1, n
    if (abs(b(j) - last_term(dble(j), m)) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  real(8) function last_term(x0, k)
    real(8), intent(in) :: x0
    integer, intent(in) :: k
    integer :: q
    last_term = x0
    do q = 2, k
      last_term = last_term * 0.5d0 + 1.0d0
    end do
  end function last_term
end program loop_seq_independent_auto
