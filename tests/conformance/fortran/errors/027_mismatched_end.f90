! expect: compile-error "end" 10:7
! An !$acc end kernels closing a parallel construct does not match it; reported at the `end`.
program mismatched_end
  implicit none
  integer :: a(10), i
!$acc parallel copy(a)
  do i = 1, 10
    a(i) = i
  end do
!$acc end kernels
  print *, a(1)
end program mismatched_end
