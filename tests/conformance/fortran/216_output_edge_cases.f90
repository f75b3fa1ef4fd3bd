! Output edge cases, exact bytes in the .stdout file: list-directed reals at the F/E switch points
! (0.1, 1e8 for real(4), 1e16 for real(8)), huge/tiny, negative values, complex(4), integer(8)
! extremes, logical arrays; the unlimited format (*(...)), F0.d and I0, and
! non-advancing output.
program output_edge_cases
  implicit none
  integer :: i
  print *, 0.1d0, 0.09999d0, 99999999.0d0, 1.0d16, 9.999d15
  print *, 0.1, 0.0999, 9999999.0, 1.0e8, 123456.7
  print *, huge(1.0d0), tiny(1.0d0), -huge(1.0)
  print *, -0.5d0, -123.25d0, -1.0d-300
  print *, (1.5, -2.25), cmplx(0.0, 1.0)
  print *, huge(1_8), -huge(1_8) - 1, -2147483647 - 1
  print *, [.true., .false., .true.]
  write(*, '(*(I3))') (i, i = 1, 8)
  write(*, '(F0.3, 1X, I0, 1X, I0)') 3.14159d0, -42, 0
  write(*, '(A)', advance='no') 'no newline '
  write(*, '(A)') 'then newline'
  write(*, '(2F8.3)') 1.0d0, -0.0005d0
  if (i /= 9) print *, 'FAIL loop variable', i
end program output_edge_cases
