! Free-form continuation: trailing & lines, a leading & on the continued line, a split string
! literal, continuation with comments between the parts, and a long expression split many times.
program continuation_lines
  implicit none
  integer :: i, nfail, total
  character(len=40) :: msg
  real(8) :: x
  nfail = 0
  total = 1 + &
          2 + &   ! a comment after the ampersand
          3 &
        + 4
  if (total /= 10) then
    nfail = nfail + 1
    print *, 'FAIL total', total
  end if
  msg = 'hello &
        &world'
  if (msg /= 'hello world') then
    nfail = nfail + 1
    print *, 'FAIL msg "', trim(msg), '"'
  end if
  x = 0.0d0
  do i = 1, &
         10
    x = x + &
! a full comment line inside the continued statement
        real(i, 8) &
        * 2.0d0
  end do
  if (x /= 110.0d0) then
    nfail = nfail + 1
    print *, 'FAIL x', x
  end if
  call ex&
       &it(nfail)
end program continuation_lines
