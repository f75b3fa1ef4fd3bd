! !$acc declare in a subroutine's declaration section: declare create of a local work array and
! declare copyin of a dummy; the data lives for the subroutine's execution.
program declare_in_procedure
  implicit none
  integer, parameter :: n = 2000
  real(8) :: x(n), y(n)
  integer :: i, nfail
  nfail = 0
  x = [(sqrt(dble(i)), i = 1, n)]
  call smooth(x, y, n)
  do i = 2, n - 1
    if (abs(y(i) - (x(i - 1) + x(i) + x(i + 1)) / 3.0d0) > 1.0d-12) nfail = nfail + 1
  end do
  if (y(1) /= x(1) .or. y(n) /= x(n)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine smooth(src, dst, m)
    integer, intent(in) :: m
    real(8), intent(in) :: src(m)
    real(8), intent(out) :: dst(m)
    real(8) :: work(m)
    integer :: k
!$acc declare copyin(src) create(work)
!$acc parallel loop present(src, work)
    do k = 1, m
      work(k) = src(k)
    end do
!$acc parallel loop present(work) copyout(dst)
    do k = 1, m
      if (k == 1 .or. k == m) then
        dst(k) = work(k)
      else
        dst(k) = (work(k - 1) + work(k) + work(k + 1)) / 3.0d0
      end if
    end do
  end subroutine smooth
end program declare_in_procedure
