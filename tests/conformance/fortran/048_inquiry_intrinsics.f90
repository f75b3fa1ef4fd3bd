! size, shape, lbound, ubound with and without dim=, on explicit, allocatable and assumed-shape
! arrays and on sections (whose lower bounds are 1).
program inquiry_intrinsics
  implicit none
  real(8) :: a(-2:5, 3:9)
  real(8), allocatable :: b(:, :, :)
  integer :: nfail
  integer :: s(2)
  nfail = 0
  if (size(a) /= 56 .or. size(a, 1) /= 8 .or. size(a, dim=2) /= 7) nfail = nfail + 1
  s = shape(a)
  if (s(1) /= 8 .or. s(2) /= 7) nfail = nfail + 1
  if (any(lbound(a) /= [-2, 3]) .or. any(ubound(a) /= [5, 9])) nfail = nfail + 1
  if (lbound(a, 2) /= 3 .or. ubound(a, 1) /= 5) nfail = nfail + 1
  if (any(lbound(a(0:3, :)) /= [1, 1]) .or. any(ubound(a(0:3, 4:8:2)) /= [4, 3])) nfail = nfail + 1
  allocate(b(2, 0:4, 3))
  if (size(b) /= 30 .or. any(shape(b) /= [2, 5, 3]) .or. lbound(b, 2) /= 0) nfail = nfail + 1
  call inner(a, nfail)
  call inner(a(-1:3, 5:9), nfail)
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine inner(x, nf)
    real(8), intent(in) :: x(:, :)
    integer, intent(inout) :: nf
    if (any(lbound(x) /= 1) .or. any(ubound(x) /= shape(x))) nf = nf + 1
    if (size(x) /= size(x, 1) * size(x, 2)) nf = nf + 1
  end subroutine inner
end program inquiry_intrinsics
