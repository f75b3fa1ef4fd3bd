! if forms: the logical if statement, if-then-else if-else chains, nested ifs, and logical
! expressions with .and./.or./.not. and comparison operators in both spellings (< .lt. == .eq. ...).
program if_forms
  implicit none
  integer :: i, cls(5), nfail
  integer :: vals(5) = [-5, 0, 3, 10, 100]
  nfail = 0
  do i = 1, 5
    if (vals(i) < 0) then
      cls(i) = -1
    else if (vals(i) .eq. 0) then
      cls(i) = 0
    else if (vals(i) <= 9 .and. vals(i) .ge. 1) then
      cls(i) = 1
    else if (.not. (vals(i) > 50)) then
      cls(i) = 2
    else
      cls(i) = 3
    end if
  end do
  if (any(cls /= [-1, 0, 1, 2, 3])) nfail = nfail + 1
  if (vals(1) .lt. vals(2) .and. vals(3) /= vals(4)) cls(1) = 42
  if (cls(1) /= 42) nfail = nfail + 1
  if (vals(5) .ne. 100 .or. vals(5) .gt. 100) nfail = nfail + 1
  if (vals(2) == 0) then
    if (vals(3) == 3) then
      cls(2) = 7
    end if
  end if
  if (cls(2) /= 7) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program if_forms
