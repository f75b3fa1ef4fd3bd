! Free form: a program with implicit none, declarations, a loop and a check against a formula.
program free_form_basics
  implicit none
  integer, parameter :: n = 100
  integer :: i, nfail
  real(8) :: a(n), s, want
  nfail = 0
  do i = 1, n
    a(i) = 0.5d0 * i + 1.0d0 / i
  end do
  s = 0.0d0
  do i = 1, n
    s = s + a(i)
  end do
  want = 0.0d0
  do i = n, 1, -1
    want = want + (0.5d0 * i + 1.0d0 / i)
  end do
  if (abs(s - want) > 1.0d-9 * abs(want)) then
    nfail = nfail + 1
    print *, 'FAIL sum', s, want
  end if
  if (a(7) /= 0.5d0 * 7 + 1.0d0 / 7) then
    nfail = nfail + 1
    print *, 'FAIL a(7)', a(7)
  end if
  call exit(nfail)
end program free_form_basics
