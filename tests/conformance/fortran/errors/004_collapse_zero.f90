! expect: compile-error "collapse" 6:30
! collapse needs a positive constant; collapse(0) is reported at its argument.
program collapse_zero
  implicit none
  integer :: a(10, 10), i, j
!$acc parallel loop collapse(0)
  do j = 1, 10
    do i = 1, 10
      a(i, j) = i + j
    end do
  end do
  print *, a(1, 1)
end program collapse_zero
