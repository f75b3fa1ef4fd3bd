! Allocatable dummy arguments (intent(out) deallocates on entry, the callee allocates), an
! allocatable function result, allocate(source=) and allocate(mold=), and automatic arrays sized
! by a dummy.
program allocatable_dummies_results
  implicit none
  real(8), allocatable :: a(:), b(:), c(:)
  integer :: i, nfail
  nfail = 0
  allocate(a(3))
  call make(a, 10)
  if (size(a) /= 10 .or. a(10) /= 100.0d0) nfail = nfail + 1
  b = squares(5)
  if (size(b) /= 5 .or. sum(b) /= 55.0d0) nfail = nfail + 1
  allocate(c, source=b)
  c(1) = -1.0d0
  if (b(1) /= 1.0d0 .or. c(2) /= 4.0d0) nfail = nfail + 1
  deallocate(c)
  allocate(c, mold=a)
  if (size(c) /= 10) nfail = nfail + 1
  if (auto_sum(7) /= 28.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine make(x, n)
    real(8), allocatable, intent(out) :: x(:)
    integer, intent(in) :: n
    if (allocated(x)) nfail = nfail + 100
    allocate(x(n))
    x = [(dble(i * i), i = 1, n)]
  end subroutine make
  function squares(n) result(r)
    integer, intent(in) :: n
    real(8), allocatable :: r(:)
    allocate(r(n))
    r = [(dble(i * i), i = 1, n)]
  end function squares
  real(8) function auto_sum(n)
    integer, intent(in) :: n
    real(8) :: work(n)
    integer :: k
    do k = 1, n
      work(k) = k
    end do
    auto_sum = sum(work)
  end function auto_sum
end program allocatable_dummies_results
