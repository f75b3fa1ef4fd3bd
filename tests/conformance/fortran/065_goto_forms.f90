! goto for the common forms: forward jumps out of nested ifs, a backward jump forming a loop,
! a jump to an END DO's label skipping the rest of an iteration, and a jump out of a loop.
program goto_forms
  implicit none
  integer :: i, s, k, nfail
  nfail = 0
  s = 0
  do 10 i = 1, 10
    if (mod(i, 2) == 0) goto 10
    s = s + i
10 continue
  if (s /= 25) nfail = nfail + 1
  k = 1
20 if (k >= 64) goto 30
  k = k * 2
  goto 20
30 continue
  if (k /= 64) nfail = nfail + 1
  do i = 1, 100
    if (i * i > 200) goto 40
  end do
  nfail = nfail + 1
40 if (i /= 15) nfail = nfail + 1
  if (k > 0) then
    if (s > 0) goto 50
    nfail = nfail + 1
  end if
50 continue
  if (nfail /= 0) print *, 'FAIL', nfail, s, k, i
  call exit(nfail)
end program goto_forms
