! mod and modulo with every sign combination (integers and reals), sign, and max/min with
! several arguments of integer and real type.
program mod_modulo_sign_minmax
  implicit none
  integer :: nfail
  nfail = 0
  if (mod(7, 3) /= 1 .or. mod(-7, 3) /= -1 .or. mod(7, -3) /= 1 .or. mod(-7, -3) /= -1) nfail = nfail + 1
  if (modulo(7, 3) /= 1 .or. modulo(-7, 3) /= 2 .or. modulo(7, -3) /= -2 .or. modulo(-7, -3) /= -1) nfail = nfail + 1
  if (abs(mod(7.5d0, 2.0d0) - 1.5d0) > 1.0d-15 .or. abs(mod(-7.5d0, 2.0d0) + 1.5d0) > 1.0d-15) nfail = nfail + 1
  if (abs(modulo(-7.5d0, 2.0d0) - 0.5d0) > 1.0d-15) nfail = nfail + 1
  if (sign(3, -2) /= -3 .or. sign(-3, 2) /= 3 .or. sign(4.0d0, -0.5d0) /= -4.0d0) nfail = nfail + 1
  if (max(3, 9, -2, 7) /= 9 .or. min(3, 9, -2, 7) /= -2) nfail = nfail + 1
  if (max(1.5d0, -2.0d0, 1.25d0) /= 1.5d0 .or. min(2.0, 1.0) /= 1.0) nfail = nfail + 1
  if (max(2_8, 5_8) /= 5_8) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program mod_modulo_sign_minmax
