! More edit descriptors: G, EN, D, B, O, Z, Iw with negative values, F with zero decimals, Tn and
! TRn positioning, a colon ending output early, and format reversion over a long list; exact bytes
! in the .stdout file.
program edit_descriptors
  implicit none
  integer :: i
  write(*, '(G12.4)') 0.5d0
  write(*, '(G12.4)') 123456.0d0
  write(*, '(EN12.3)') 12345.0d0
  write(*, '(D12.4)') 0.0025d0
  write(*, '(B8, 1X, O4, 1X, Z4)') 10, 64, 255
  write(*, '(I4, I4)') -12, -345
  write(*, '(F6.0)') 2.5d0
  write(*, '(A, T10, A, TR2, A)') 'ab', 'cd', 'ef'
  write(*, '(3(I2, :, ","))') 1, 2
  write(*, '(I3, I3)') (i, i = 1, 7)
  write(*, '(L3, A3)') .false., 'xyz'
  if (len('ab') /= 2) print *, 'FAIL'
end program edit_descriptors
