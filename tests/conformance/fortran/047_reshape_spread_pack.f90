! Array-shaping intrinsics used with arrays: reshape (with order= and pad=), spread, pack, unpack,
! cshift and eoshift, checked element by element.
program reshape_spread_pack
  implicit none
  integer :: m(2, 3), s(3, 2), v(6), i, nfail
  logical :: mask(6)
  nfail = 0
  m = reshape([1, 2, 3, 4, 5, 6], [2, 3])
  if (m(2, 1) /= 2 .or. m(1, 2) /= 3 .or. m(2, 3) /= 6) nfail = nfail + 1
  m = reshape([1, 2, 3, 4, 5, 6], [2, 3], order=[2, 1])
  if (m(1, 2) /= 2 .or. m(2, 1) /= 4) nfail = nfail + 1
  m = reshape([7, 8], [2, 3], pad=[0])
  if (m(1, 1) /= 7 .or. m(2, 3) /= 0) nfail = nfail + 1
  s = spread([1, 2, 3], 2, 2)
  if (s(3, 1) /= 3 .or. s(3, 2) /= 3 .or. sum(s) /= 12) nfail = nfail + 1
  v = [(i * 3, i = 1, 6)]
  mask = mod(v, 2) == 0
  if (any(pack(v, mask) /= [6, 12, 18])) nfail = nfail + 1
  v = unpack([-1, -2, -3], mask, v)
  if (any(v /= [3, -1, 9, -2, 15, -3])) nfail = nfail + 1
  v = [(i, i = 1, 6)]
  if (any(cshift(v, 2) /= [3, 4, 5, 6, 1, 2])) nfail = nfail + 1
  if (any(eoshift(v, -1) /= [0, 1, 2, 3, 4, 5])) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program reshape_spread_pack
