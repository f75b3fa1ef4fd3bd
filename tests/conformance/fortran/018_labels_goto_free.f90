! Statement labels in free form: a labelled DO ending on CONTINUE, goto forward and backward,
! a loop built from if/goto, and labelled END DO.
program labels_goto_free
  implicit none
  integer :: i, k, nfail, s
  nfail = 0
  s = 0
  do 10 i = 1, 10
    s = s + i
10 continue
  if (s /= 55) then
    nfail = nfail + 1
    print *, 'FAIL do 10', s
  end if
  k = 0
20 k = k + 1
  if (k < 7) goto 20
  if (k /= 7) then
    nfail = nfail + 1
    print *, 'FAIL backward goto', k
  end if
  goto 40
  nfail = nfail + 100
  print *, 'FAIL skipped code ran'
40 continue
  s = 0
  do 50 i = 1, 4
    s = s + 2 * i
50 end do
  if (s /= 20) then
    nfail = nfail + 1
    print *, 'FAIL do 50', s
  end if
  call exit(nfail)
end program labels_goto_free
