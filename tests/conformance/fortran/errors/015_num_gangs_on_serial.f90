! expect: compile-error "num_gangs" 6:14
! The serial construct takes no num_gangs clause; it is reported at the clause name.
program num_gangs_on_serial
  implicit none
  integer :: a(10), i
!$acc serial num_gangs(2)
  do i = 1, 10
    a(i) = i
  end do
!$acc end serial
  print *, a(1)
end program num_gangs_on_serial
