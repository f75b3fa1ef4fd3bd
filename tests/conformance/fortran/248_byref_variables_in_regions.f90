! Variables a compute construct reaches by reference, each mapped on its own so that a discrete
! device (nvidia, or host with ACCJIT_DISCRETE_HOST=1) gets them right: COMMON members (a reduction
! target beside an array in one block, an array with no clause, a read-only scalar, a private one),
! host-associated variables of an internal procedure (scalars reduced on a combined construct and
! on a loop inside a parallel region, arrays with and without clauses, bounds of an allocatable),
! a COMMON scalar reduced in one kernel and read by the next inside a data construct, and one
! written in a kernels construct.
program byref_variables_in_regions
  implicit none
  integer, parameter :: n = 300
  real(8) :: x(n), y(n), total, scale
  integer :: cnt, ipriv
  common /blk/ x, total, y
  common /par/ scale, cnt, ipriv
  real(8), allocatable :: h(:)
  real(8) :: w(n), hsum, hpeak, want
  integer :: i, nfail
  nfail = 0
  call srand_like(x, 7)
  scale = 1.5d0
  ! common: reduction target beside a copyin array in the same block; y has no clause
  total = 0.0d0
!$acc parallel loop reduction(+:total) copyin(x)
  do i = 1, n
    total = total + x(i)
  end do
  want = 0.0d0
  do i = 1, n
    want = want + x(i)
  end do
  if (abs(total - want) > 1.0d-9 * abs(want)) nfail = nfail + 1
!$acc parallel loop private(ipriv)
  do i = 1, n
    ipriv = mod(i, 7)
    y(i) = scale * x(i) + dble(ipriv)
  end do
  do i = 1, n
    if (y(i) /= scale * x(i) + dble(mod(i, 7))) nfail = nfail + 1
  end do
  ! a reduction and then a kernel that reads its result, inside one data construct
  total = 0.0d0
!$acc data copyin(x) copy(total) create(y)
!$acc parallel loop reduction(+:total)
  do i = 1, n
    total = total + x(i) * x(i)
  end do
!$acc parallel loop
  do i = 1, n
    y(i) = x(i) * x(i) / total
  end do
!$acc update self(y)
!$acc end data
  want = 0.0d0
  do i = 1, n
    want = want + x(i) * x(i)
  end do
  if (abs(total - want) > 1.0d-9 * want) nfail = nfail + 1
  if (abs(sum(y) - 1.0d0) > 1.0d-9) nfail = nfail + 1
  ! a common scalar written in a kernels construct comes back
  cnt = 0
!$acc kernels
  cnt = n + 5
!$acc end kernels
  if (cnt /= n + 5) nfail = nfail + 1
  ! host association
  allocate(h(0:n-1))
  do i = 0, n - 1
    h(i) = dble(mod(i * 37, 101)) - 50.0d0
  end do
  call inner()
  want = 0.0d0
  do i = 0, n - 1
    want = want + h(i)
  end do
  if (abs(hsum - want) > 1.0d-9) nfail = nfail + 1
  if (hpeak /= maxval(abs(h))) nfail = nfail + 1
  do i = 1, n
    if (w(i) /= scale * h(i - 1)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  subroutine inner()
    integer :: j
    hsum = 0.0d0
!$acc parallel loop reduction(+:hsum) copyin(h)
    do j = 0, n - 1
      hsum = hsum + h(j)
    end do
    hpeak = 0.0d0
!$acc parallel copyin(h(0:n-1))
!$acc loop reduction(max:hpeak)
    do j = lbound(h, 1), ubound(h, 1)
      hpeak = max(hpeak, abs(h(j)))
    end do
!$acc end parallel
!$acc parallel loop
    do j = 1, n
      w(j) = scale * h(j - 1)
    end do
  end subroutine inner

  subroutine srand_like(v, seed)
    real(8), intent(out) :: v(:)
    integer, intent(in) :: seed
    integer :: k, s
    s = seed
    do k = 1, size(v)
      s = mod(s * 1103 + 12345, 65536)
      v(k) = dble(s) / 65536.0d0 + 0.25d0
    end do
  end subroutine srand_like
end program byref_variables_in_regions
