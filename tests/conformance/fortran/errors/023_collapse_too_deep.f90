! expect: compile-error "collapse" 8:5
! collapse(2) over a single loop: the statement where the inner DO should start is reported.
program collapse_too_deep
  implicit none
  integer :: a(10), i
!$acc parallel loop collapse(2)
  do i = 1, 10
    a(i) = i
  end do
  print *, a(1)
end program collapse_too_deep
