! reduction(.eqv.:) and reduction(.neqv.:) on logicals: .neqv. over all elements is the parity
! of the true ones, .eqv. the parity of the false ones (inverted), checked against count().
program reduction_eqv_neqv
  implicit none
  integer, parameter :: n = 3001
  logical :: flags(n), parity, same
  integer :: i, nfail
  nfail = 0
  do i = 1, n
    flags(i) = mod(i * i + 3 * i, 7) < 3
  end do
  parity = .false.
  same = .true.
!$acc parallel loop copyin(flags) reduction(.neqv.:parity) reduction(.eqv.:same)
  do i = 1, n
    parity = parity .neqv. flags(i)
    same = same .eqv. flags(i)
  end do
  if (parity .neqv. (mod(count(flags), 2) == 1)) nfail = nfail + 1
  if (same .neqv. (mod(count(.not. flags), 2) == 0)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, parity, same, count(flags)
  call exit(nfail)
end program reduction_eqv_neqv
