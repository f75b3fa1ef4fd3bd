! print in device code from a gang loop: every iteration prints one list-directed line (strings,
! integers, a logical) and every fifth one calls an acc routine that prints a formatted line. Threads
! print in no defined order (neither the OpenACC spec nor NVHPC gives one), so the lines are checked
! as a set, sorted, by tests/test_fortran_device_print.py (which computes them); here the values.
module print_gang_loop_routines
  implicit none
contains
  subroutine show(i, v)
    !$acc routine seq
    integer, intent(in) :: i, v
    print '(A,I4,A,I6)', 'routine', i, ':', v
  end subroutine show
end module print_gang_loop_routines

program print_gang_loop_lines
  use print_gang_loop_routines
  implicit none
  integer, parameter :: n = 40
  integer :: a(n), b(n), i, errors
  do i = 1, n
    a(i) = mod(i * 37 + 11, 101)
  end do
!$acc parallel loop gang copyin(a) copyout(b)
  do i = 1, n
    b(i) = mod(a(i) * a(i), 97) + i
    print *, 'item', i, 'value', b(i), b(i) > 50
    if (mod(i, 5) == 0) call show(i, b(i))
  end do
  errors = 0
  do i = 1, n
    if (b(i) /= mod(a(i) * a(i), 97) + i) errors = errors + 1
  end do
  if (errors /= 0) print *, 'FAIL values', errors
end program print_gang_loop_lines
