! expect: compile-error "frobnicate" 6:21
! An unknown clause on a parallel loop directive is reported at the clause name.
program unknown_clause
  implicit none
  integer :: a(10), i
!$acc parallel loop frobnicate(a)
  do i = 1, 10
    a(i) = i
  end do
  print *, a(1)
end program unknown_clause
