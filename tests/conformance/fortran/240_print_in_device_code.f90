! print in device code: a serial region prints an integer, a real and a string with list-directed
! output (one executor, so the order is defined); exact bytes in the .stdout file.
program print_in_device_code
  implicit none
  integer :: k, total
  real(8) :: x
  total = 0
  x = 0.5d0
!$acc serial copy(total) copyin(x)
  do k = 1, 3
    total = total + k
    print *, 'step', k, total
  end do
  print *, x * 4.0d0
!$acc end serial
  if (total /= 6) print *, 'FAIL total', total
end program print_in_device_code
