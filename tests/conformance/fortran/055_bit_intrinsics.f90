! Bit intrinsics on default and 8-byte integers: iand, ior, ieor, not, ishft (left and right,
! logical), btest, ibset, ibclr, and a popcount built from them.
program bit_intrinsics
  implicit none
  integer :: a, b, c, k, nfail
  integer(8) :: w
  nfail = 0
  a = 12
  b = 10
  if (iand(a, b) /= 8 .or. ior(a, b) /= 14 .or. ieor(a, b) /= 6) nfail = nfail + 1
  if (not(0) /= -1 .or. not(a) /= -13) nfail = nfail + 1
  if (ishft(1, 10) /= 1024 .or. ishft(1024, -3) /= 128) nfail = nfail + 1
  if (ishft(-1, -28) /= 15) nfail = nfail + 1
  if (.not. btest(a, 2) .or. btest(a, 0)) nfail = nfail + 1
  if (ibset(a, 0) /= 13 .or. ibclr(a, 3) /= 4) nfail = nfail + 1
  c = 0
  do k = 0, 31
    if (btest(123456789, k)) c = c + 1
  end do
  if (c /= popcnt(123456789)) nfail = nfail + 1
  w = ishft(1_8, 40)
  if (w /= 1099511627776_8 .or. iand(w - 1, w) /= 0) nfail = nfail + 1
  if (ieor(w, w) /= 0_8) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program bit_intrinsics
