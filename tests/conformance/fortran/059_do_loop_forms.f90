! DO loop forms: positive and negative steps, non-unit steps, zero-trip loops, the loop variable's
! value after the loop, an iteration count fixed at entry (changing the bound inside does not
! change it), and a DO without control ended by exit.
program do_loop_forms
  implicit none
  integer :: i, n, trips, s, nfail
  nfail = 0
  s = 0
  do i = 10, 1, -3
    s = s + i
  end do
  if (s /= 10 + 7 + 4 + 1 .or. i /= -2) nfail = nfail + 1
  trips = 0
  do i = 5, 4
    trips = trips + 1
  end do
  if (trips /= 0 .or. i /= 5) nfail = nfail + 1
  n = 4
  trips = 0
  do i = 1, n
    n = n + 1
    trips = trips + 1
  end do
  if (trips /= 4 .or. i /= 5) nfail = nfail + 1
  s = 0
  do i = 1, 20, 7
    s = s + i
  end do
  if (s /= 1 + 8 + 15 .or. i /= 22) nfail = nfail + 1
  i = 0
  do
    i = i + 1
    if (i * i > 50) exit
  end do
  if (i /= 8) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program do_loop_forms
