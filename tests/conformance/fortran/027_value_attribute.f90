! The value attribute: the dummy is a copy, so assigning to it does not change the actual; mixed
! value and reference dummies in one call; value reals and logicals.
program value_attribute
  implicit none
  integer :: n, out, nfail
  real(8) :: x
  logical :: flag
  nfail = 0
  n = 5
  x = 2.5d0
  flag = .true.
  call consume(n, x, flag, out)
  if (n /= 5 .or. x /= 2.5d0 .or. .not. flag) then
    nfail = nfail + 1
    print *, 'FAIL actuals changed', n, x, flag
  end if
  if (out /= 5 * 4 + 3) then
    nfail = nfail + 1
    print *, 'FAIL out', out
  end if
  if (countdown(n) /= 15) nfail = nfail + 1
  call exit(nfail)
contains
  subroutine consume(k, y, f, res)
    integer, value :: k
    real(8), value :: y
    logical, value :: f
    integer, intent(out) :: res
    res = 0
    do while (k > 0)
      res = res + 4
      k = k - 1
    end do
    y = y * 2
    if (f) res = res + 3
    f = .false.
  end subroutine consume
  integer function countdown(k)
    integer, value :: k
    countdown = 0
    do while (k > 0)
      countdown = countdown + k
      k = k - 1
    end do
  end function countdown
end program value_attribute
