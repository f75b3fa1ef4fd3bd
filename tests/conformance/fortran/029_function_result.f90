! Functions with result(name), array-valued results, a typed function statement (real(8) function)
! and a function whose result is a logical.
program function_result
  implicit none
  integer :: nfail, i
  real(8) :: v(6)
  nfail = 0
  if (cube(3) /= 27) nfail = nfail + 1
  v = ramp(6)
  do i = 1, 6
    if (v(i) /= 0.5d0 * i) nfail = nfail + 1
  end do
  if (.not. is_even(10) .or. is_even(7)) nfail = nfail + 1
  if (abs(hyp(3.0d0, 4.0d0) - 5.0d0) > 1.0d-14) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  function cube(n) result(r)
    integer, intent(in) :: n
    integer :: r
    r = n * n * n
  end function cube
  function ramp(n) result(values)
    integer, intent(in) :: n
    real(8) :: values(n)
    integer :: k
    do k = 1, n
      values(k) = 0.5d0 * k
    end do
  end function ramp
  logical function is_even(n)
    integer, intent(in) :: n
    is_even = mod(n, 2) == 0
  end function is_even
  real(8) function hyp(a, b) result(h)
    real(8), intent(in) :: a, b
    h = sqrt(a * a + b * b)
  end function hyp
end program function_result
