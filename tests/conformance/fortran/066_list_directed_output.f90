! List-directed output (print * and write(*,*)) of integers, reals of both kinds, logicals,
! complex values and strings; the expected bytes are in 066_list_directed_output.stdout (gfortran's).
program list_directed_output
  implicit none
  integer :: i, nfail
  integer(8) :: big
  real(8) :: d
  real :: r
  nfail = 0
  i = 42
  big = 123456789012_8
  d = 0.125d0
  r = 2.5
  print *, i
  print *, -7, 0, 2147483647
  print *, big
  write(*,*) d
  write(*,*) r
  print *, .true., .false.
  print *, 'text', i
  print *, (1.0d0, -2.0d0)
  write(*, *) 1.0d0, 100.0d0, 1.0d-3
  if (nfail /= 0) print *, 'FAIL'
  call exit(nfail)
end program list_directed_output
