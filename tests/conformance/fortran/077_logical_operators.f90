! Logical type and operators: .and. .or. .not. .eqv. .neqv., logical arrays, logical(kind) values,
! and the truth tables computed over all inputs.
program logical_operators
  implicit none
  logical :: p, q, t(4)
  integer :: i, j, nfail
  nfail = 0
  do i = 0, 1
    do j = 0, 1
      p = i == 1
      q = j == 1
      if ((p .and. q) .neqv. (i * j == 1)) nfail = nfail + 1
      if ((p .or. q) .neqv. (i + j >= 1)) nfail = nfail + 1
      if ((p .eqv. q) .neqv. (i == j)) nfail = nfail + 1
      if ((p .neqv. q) .neqv. (i /= j)) nfail = nfail + 1
      if ((.not. p) .eqv. p) nfail = nfail + 1
    end do
  end do
  t = [.true., .false., .true., .true.]
  if (count(t) /= 3 .or. count(.not. t) /= 1) nfail = nfail + 1
  if (.not. (t(1) .and. t(3) .or. t(2))) nfail = nfail + 1
  p = .true. .neqv. .true. .neqv. .true.
  if (.not. p) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program logical_operators
