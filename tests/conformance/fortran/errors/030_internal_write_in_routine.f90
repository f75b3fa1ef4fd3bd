! expect: compile-error "internal write" 13:11
! an internal write (into a character variable) in an acc routine: device code has no form of it
! (print and write to a unit are accepted). Reported at the variable.
! gfortran: accepts (it runs OpenACC regions on the host)
module label_routines
  implicit none
contains
  subroutine label(i, v)
    !$acc routine seq
    integer, intent(in) :: i
    integer, intent(out) :: v
    character(len=8) :: s
    write(s, '(I8)') i
    v = len_trim(adjustl(s))
  end subroutine label
end module label_routines

program internal_write_in_routine
  use label_routines
  implicit none
  integer :: v(4), i
!$acc parallel loop copyout(v)
  do i = 1, 4
    call label(i * 1000, v(i))
  end do
  print *, v
end program internal_write_in_routine
