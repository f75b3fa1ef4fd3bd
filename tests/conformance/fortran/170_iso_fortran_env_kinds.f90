! use iso_fortran_env: real32, real64, int8, int16, int32, int64 as kinds, and output_unit for
! write; the kinds have the expected storage and ranges.
program iso_fortran_env_kinds
  use iso_fortran_env, only: real32, real64, int8, int16, int32, int64, output_unit
  implicit none
  real(real64) :: d(100), s
  real(real32) :: r
  integer(int8) :: b
  integer(int16) :: h
  integer(int32) :: i
  integer(int64) :: w
  integer :: nfail
  nfail = 0
  if (real32 /= 4 .or. real64 /= 8 .or. int8 /= 1 .or. int16 /= 2 .or. int32 /= 4 .or. int64 /= 8) nfail = nfail + 1
  b = 127_int8
  h = 32000_int16
  w = huge(0_int64)
  if (huge(b) /= 127 .or. huge(h) /= 32767 .or. w /= 9223372036854775807_int64) nfail = nfail + 1
  d = [(1.0_real64 / i, i = 1, 100)]
  s = 0.0_real64
!$acc parallel loop copyin(d) reduction(+:s)
  do i = 1, 100
    s = s + d(i)
  end do
  if (abs(s - sum(d)) > 1.0e-12_real64) nfail = nfail + 1
  r = real(s, real32)
  if (abs(r - 5.187378_real32) > 1.0e-5_real32) nfail = nfail + 1
  if (nfail /= 0) write(output_unit, *) 'FAIL', nfail, s, r
  call exit(nfail)
end program iso_fortran_env_kinds
