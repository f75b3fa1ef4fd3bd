! Nested data constructs: an inner data region names arrays already present (present clause and
! copy of a present array, which does not copy again), and a compute construct in a subroutine
! called inside the data region uses present on its dummy.
program nested_data_present
  implicit none
  integer, parameter :: n = 3000
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(mod(i, 50)), i = 1, n)]
  b = 0.0d0
!$acc data copy(a, b)
!$acc data present(a) copy(b)
!$acc parallel loop
  do i = 1, n
    b(i) = a(i) + 1.0d0
  end do
!$acc end data
  call scale_present(a, n, 2.0d0)
!$acc end data
  do i = 1, n
    if (b(i) /= dble(mod(i, 50)) + 1.0d0 .or. a(i) /= 2.0d0 * mod(i, 50)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine scale_present(v, m, f)
    integer, intent(in) :: m
    real(8), intent(inout) :: v(m)
    real(8), intent(in) :: f
    integer :: k
!$acc parallel loop present(v)
    do k = 1, m
      v(k) = v(k) * f
    end do
  end subroutine scale_present
end program nested_data_present
