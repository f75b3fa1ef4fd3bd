! expect: compile-error "gang" 7:16
! seq and gang exclude each other on one loop directive; the later clause is reported.
program seq_gang_conflict
  implicit none
  integer :: a(10), i
!$acc parallel
!$acc loop seq gang
  do i = 1, 10
    a(i) = i
  end do
!$acc end parallel
  print *, a(1)
end program seq_gang_conflict
