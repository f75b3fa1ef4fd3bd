! Kinds: real(4)/real(8)/double precision, integer(4)/integer(kind=8), kind= from selected_real_kind
! and selected_int_kind, kind() of literals with _dp suffixes, and precision/range of each.
program kinds
  implicit none
  integer, parameter :: sp = selected_real_kind(6, 37)
  integer, parameter :: dp = selected_real_kind(15, 307)
  integer, parameter :: i8 = selected_int_kind(18)
  real(sp) :: a
  real(kind=dp) :: b
  double precision :: c
  real(8) :: d
  integer(kind=i8) :: big
  integer(4) :: small
  integer :: nfail
  nfail = 0
  if (sp /= 4 .or. dp /= 8 .or. i8 /= 8) then
    nfail = nfail + 1
    print *, 'FAIL kind values', sp, dp, i8
  end if
  a = 1.0_sp / 3.0_sp
  b = 1.0_dp / 3.0_dp
  c = 1.0d0 / 3.0d0
  d = b
  if (kind(a) /= 4 .or. kind(b) /= 8 .or. kind(c) /= 8 .or. kind(1.5_dp) /= 8) nfail = nfail + 1
  if (abs(real(a, dp) - b) < 1.0d-12) nfail = nfail + 1
  if (abs(a - 1.0 / 3.0) > 1.0e-7 .or. c /= d) nfail = nfail + 1
  big = 2_i8**40 + 7
  small = int(mod(big, 1000_i8))
  if (big /= 1099511627783_i8 .or. small /= 783) then
    nfail = nfail + 1
    print *, 'FAIL big', big, small
  end if
  if (precision(a) /= 6 .or. precision(b) /= 15) nfail = nfail + 1
  if (range(big) /= 18 .or. range(small) /= 9) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program kinds
