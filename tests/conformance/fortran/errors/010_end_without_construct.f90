! expect: compile-error "parallel" 9:7
! An !$acc end parallel with no open parallel construct is reported at the `end` after the sentinel.
program end_without_construct
  implicit none
  integer :: a(10), i
  do i = 1, 10
    a(i) = i
  end do
!$acc end parallel
  print *, a(1)
end program end_without_construct
