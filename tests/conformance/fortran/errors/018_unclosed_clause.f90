! expect: compile-error "expected" 7:29
! A clause whose parenthesis is never closed: the missing `)` is reported just after the last token
! of the directive line.
program unclosed_clause
  implicit none
  integer :: a(10), i
!$acc parallel loop copyin(a
  do i = 1, 10
    a(i) = i
  end do
  print *, a(1)
end program unclosed_clause
