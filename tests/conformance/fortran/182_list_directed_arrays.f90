! List-directed output of arrays, implied-do lists, sections, negative and zero values, real(4)
! and real(8) values of varied magnitude, and mixed items on one line; exact bytes in the .stdout.
program list_directed_arrays
  implicit none
  integer :: v(6), i
  real(8) :: d(4)
  real :: r(3)
  v = [(i * i - 10, i = 1, 6)]
  d = [0.0d0, -1.5d0, 1.0d10, 3.0d-5]
  r = [1.0, -0.1, 12345.678]
  print *, v
  print *, v(2:6:2)
  print *, (v(i) * 2, i = 1, 3)
  print *, d
  print *, r
  write(*, *) 'n =', size(v), 'sum =', sum(v), .true.
  print *, -0.0d0, 1.0d0 / 3.0d0, 2.0 / 3.0
  print *, 123456789.0d0, 1.0d15, 1.0d16, 1.0e-2
  if (sum(v) /= 31) print *, 'FAIL sum', sum(v)
end program list_directed_arrays
