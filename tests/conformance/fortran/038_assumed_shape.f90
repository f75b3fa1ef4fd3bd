! Assumed-shape dummies a(:,:) (with and without a declared lower bound): size/shape/lbound inside,
! passing whole arrays, sections and strided sections, and an OpenACC loop over the dummy.
program assumed_shape
  implicit none
  real(8) :: m(8, 5), v(20)
  integer :: i, j, nfail
  nfail = 0
  do j = 1, 5
    do i = 1, 8
      m(i, j) = i + 10 * j
    end do
  end do
  v = [(dble(i), i = 1, 20)]
  if (total2(m) /= sum(m)) nfail = nfail + 1
  if (total2(m(2:7, 2:4)) /= sum(m(2:7, 2:4))) nfail = nfail + 1
  if (total1(v(1:20:3)) /= sum(v(1:20:3))) nfail = nfail + 1
  if (first_index(v(5:9)) /= 0) nfail = nfail + 1
  call scale(m(:, 3))
  if (any(m(:, 3) /= 3 * [(i + 30, i = 1, 8)])) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  real(8) function total2(a)
    real(8), intent(in) :: a(:, :)
    integer :: p, q
    total2 = 0.0d0
!$acc parallel loop collapse(2) reduction(+:total2) copyin(a)
    do q = 1, size(a, 2)
      do p = 1, size(a, 1)
        total2 = total2 + a(p, q)
      end do
    end do
  end function total2
  real(8) function total1(a)
    real(8), intent(in) :: a(:)
    total1 = sum(a)
  end function total1
  integer function first_index(a)
    real(8), intent(in) :: a(0:)
    first_index = lbound(a, 1)
    if (ubound(a, 1) /= 4 .or. a(0) /= 5.0d0) first_index = -99
  end function first_index
  subroutine scale(a)
    real(8), intent(inout) :: a(:)
    a = 3 * a
  end subroutine scale
end program assumed_shape
