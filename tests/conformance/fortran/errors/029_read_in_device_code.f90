! expect: compile-error "read" 12:5
! read inside a compute construct: device code has no input (print and
! write to a unit are accepted there). Reported at the statement.
! gfortran: accepts (it runs OpenACC regions on the host, where stdin is there)
program read_in_device_code
  implicit none
  integer :: a(8), i, n
  n = 0
  a = 0
!$acc parallel loop copy(a)
  do i = 1, 8
    read(*, *) n
    a(i) = n + i
  end do
  print *, a(1)
end program read_in_device_code
