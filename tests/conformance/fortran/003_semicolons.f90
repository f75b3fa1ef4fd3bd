! Several statements on one line separated by `;`, including a trailing `;` and one after a label-less
! if-then block line.
program semicolons
  implicit none
  integer :: a, b, c, nfail, i
  integer :: v(5)
  nfail = 0
  a = 1; b = 2; c = a + b;
  if (c /= 3) then; nfail = nfail + 1; print *, 'FAIL c', c; end if
  do i = 1, 5; v(i) = i * i; end do
  if (sum(v) /= 55) then
    nfail = nfail + 1; print *, 'FAIL sum', sum(v)
  end if
  a = 10 ; b = a / 3 ; c = mod(a, 3)
  if (b /= 3 .or. c /= 1) then
    nfail = nfail + 1
    print *, 'FAIL div', b, c
  end if
  call exit(nfail)
end program semicolons
