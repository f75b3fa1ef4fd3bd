! Derived-type scalars in private and firstprivate clauses: each iteration's private record is its
! own, and a firstprivate record brings the host's component values into every gang.
program derived_type_private
  implicit none
  type :: params
    real(8) :: scale
    real(8) :: shift
    integer :: power
  end type params
  type :: work_rec
    real(8) :: v(4)
    integer :: tag
  end type work_rec
  integer, parameter :: n = 800
  type(params) :: p
  type(work_rec) :: w
  real(8) :: out(n)
  integer :: i, k, nfail
  nfail = 0
  p = params(2.0d0, -1.0d0, 2)
!$acc parallel loop firstprivate(p) private(w) copyout(out)
  do i = 1, n
    w%tag = i
    do k = 1, 4
      w%v(k) = p%scale * dble(i) + p%shift * k
    end do
    out(i) = sum(w%v**p%power) + w%tag
  end do
  do i = 1, n
    if (abs(out(i) - (sum([((2.0d0 * i - k)**2, k = 1, 4)]) + i)) > 1.0d-9 * out(i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program derived_type_private
