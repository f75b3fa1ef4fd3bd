! do while, exit and cycle in unnamed loops (the innermost loop is affected), a while loop
! computing a Collatz sequence length and a search that exits early.
program do_while_exit_cycle
  implicit none
  integer :: n, steps, i, j, s, found, nfail
  nfail = 0
  n = 27
  steps = 0
  do while (n /= 1)
    if (mod(n, 2) == 0) then
      n = n / 2
    else
      n = 3 * n + 1
    end if
    steps = steps + 1
  end do
  if (steps /= 111) nfail = nfail + 1
  s = 0
  do i = 1, 10
    if (mod(i, 3) == 0) cycle
    s = s + i
  end do
  if (s /= 55 - 3 - 6 - 9) nfail = nfail + 1
  found = 0
  do i = 1, 5
    do j = 1, 5
      if (i * j == 12) then
        found = found + 10 * i + j
        exit
      end if
    end do
  end do
  if (found /= 34 + 43) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, steps, s, found
  call exit(nfail)
end program do_while_exit_cycle
