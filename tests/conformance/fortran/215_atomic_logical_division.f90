! atomic update with the remaining Fortran operators: x = x .and. expr, x = x .or. expr,
! x = x .eqv. expr, x = expr .neqv. x on logicals, x = x / expr on a real, and atomics on
! integer(8) and real(4) variables.
program atomic_logical_division
  implicit none
  integer, parameter :: n = 64
  logical :: all_pos, any_big, parity_eqv, parity_neqv
  real(8) :: q
  integer(8) :: big
  real(4) :: small
  integer :: i, nfail
  logical :: want_eqv, want_neqv
  nfail = 0
  all_pos = .true.
  any_big = .false.
  parity_eqv = .true.
  parity_neqv = .false.
  q = 2.0d0**20
  big = 0
  small = 0.0
!$acc parallel loop copy(all_pos, any_big, parity_eqv, parity_neqv, q, big, small)
  do i = 1, n
!$acc atomic
    all_pos = all_pos .and. (i > 0)
!$acc atomic
    any_big = any_big .or. (i > 60)
!$acc atomic
    parity_eqv = parity_eqv .eqv. (mod(i, 3) == 0)
!$acc atomic update
    parity_neqv = (mod(i, 5) == 0) .neqv. parity_neqv
!$acc end atomic
    if (i <= 10) then
!$acc atomic
      q = q / 2.0d0
    end if
!$acc atomic
    big = big + int(i, 8) * 1000000000_8
!$acc atomic
    small = small + 0.5
  end do
  want_eqv = .true.
  want_neqv = .false.
  do i = 1, n
    want_eqv = want_eqv .eqv. (mod(i, 3) == 0)
    want_neqv = want_neqv .neqv. (mod(i, 5) == 0)
  end do
  if (.not. all_pos .or. .not. any_big) nfail = nfail + 1
  if ((parity_eqv .neqv. want_eqv) .or. (parity_neqv .neqv. want_neqv)) nfail = nfail + 1
  if (q /= 2.0d0**10) nfail = nfail + 1
  if (big /= int(n, 8) * (n + 1) / 2 * 1000000000_8 .or. small /= 0.5 * n) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program atomic_logical_division
