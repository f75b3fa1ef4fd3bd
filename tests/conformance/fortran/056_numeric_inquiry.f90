! huge, tiny and epsilon for integer and real kinds, and the properties that define them.
program numeric_inquiry
  implicit none
  integer :: nfail
  real(8) :: e8
  real :: e4
  nfail = 0
  if (huge(1) /= 2147483647) nfail = nfail + 1
  if (huge(1_8) /= 9223372036854775807_8) nfail = nfail + 1
  e8 = epsilon(1.0d0)
  e4 = epsilon(1.0)
  if (e8 /= 2.0d0**(-52) .or. e4 /= 2.0**(-23)) nfail = nfail + 1
  if (1.0d0 + e8 == 1.0d0 .or. 1.0d0 + e8 / 2 /= 1.0d0) nfail = nfail + 1
  if (tiny(1.0d0) /= 2.0d0**(-1022) .or. tiny(1.0) /= 2.0**(-126)) nfail = nfail + 1
  if (huge(1.0d0) < 1.0d308 .or. huge(1.0) < 3.0e38) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program numeric_inquiry
