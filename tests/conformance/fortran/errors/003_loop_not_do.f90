! expect: compile-error "do" 9:3
! A loop directive must be followed by a DO loop; here it is followed by an assignment, which is
! reported at its first token.
program loop_not_do
  implicit none
  integer :: a(10), i
!$acc parallel
!$acc loop
  a(1) = 0
  do i = 1, 10
    a(i) = i
  end do
!$acc end parallel
  print *, a(1)
end program loop_not_do
