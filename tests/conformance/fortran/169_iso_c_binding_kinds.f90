! use iso_c_binding: kinds c_double, c_float, c_int, c_long, c_int64_t and c_bool used in
! declarations, literals with _c_double, and a parallel loop on real(c_double) arrays.
program iso_c_binding_kinds
  use iso_c_binding, only: c_double, c_float, c_int, c_long, c_int64_t, c_bool
  implicit none
  integer(c_int), parameter :: n = 500
  real(c_double) :: a(n), s
  real(c_float) :: f
  integer(c_int64_t) :: big
  integer(c_long) :: l
  logical(c_bool) :: flag
  integer(c_int) :: i, nfail
  nfail = 0
  if (c_double /= 8 .or. c_float /= 4 .or. c_int /= 4 .or. c_int64_t /= 8 .or. c_long /= 8) nfail = nfail + 1
  a = [(real(i, c_double) * 0.5_c_double, i = 1, n)]
  s = 0.0_c_double
!$acc parallel loop copyin(a) reduction(+:s)
  do i = 1, n
    s = s + a(i)
  end do
  if (abs(s - 0.25_c_double * n * (n + 1)) > 1.0e-9_c_double) nfail = nfail + 1
  f = 1.5_c_float
  big = 2_c_int64_t**40
  l = int(big, c_long) + 1
  flag = .true.
  if (kind(f) /= 4 .or. kind(big) /= 8 .or. l /= 1099511627777_c_long .or. .not. flag) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, s
  call exit(nfail)
end program iso_c_binding_kinds
