! pure and elemental procedures: an elemental function applied to scalars, whole arrays and
! sections; an elemental subroutine; a pure function used in an expression.
program pure_elemental
  implicit none
  real(8) :: x(100), y(100)
  integer :: i, nfail
  nfail = 0
  do i = 1, 100
    x(i) = -5.0d0 + 0.1d0 * i
  end do
  y = clamp(x, -1.0d0, 2.0d0)
  do i = 1, 100
    if (y(i) /= max(-1.0d0, min(2.0d0, x(i)))) nfail = nfail + 1
  end do
  y(1:10) = clamp(x(91:100), 0.0d0, 4.0d0)
  if (y(10) /= 4.0d0 .or. y(1) /= min(4.0d0, x(91))) nfail = nfail + 1
  call swap_sign(x(1:3))
  if (x(1) /= 4.9d0 .and. abs(x(1) - 4.9d0) > 1.0d-12) nfail = nfail + 1
  if (norm2sq(x(4:6)) /= x(4)**2 + x(5)**2 + x(6)**2) nfail = nfail + 1
  if (clamp(7.0d0, 0.0d0, 1.0d0) /= 1.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  elemental real(8) function clamp(v, lo, hi)
    real(8), intent(in) :: v, lo, hi
    clamp = max(lo, min(hi, v))
  end function clamp
  elemental subroutine swap_sign(v)
    real(8), intent(inout) :: v
    v = -v
  end subroutine swap_sign
  pure real(8) function norm2sq(v)
    real(8), intent(in) :: v(:)
    norm2sq = sum(v * v)
  end function norm2sq
end program pure_elemental
