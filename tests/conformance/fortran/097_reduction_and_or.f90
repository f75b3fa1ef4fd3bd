! reduction(.and.:) and reduction(.or.:) on logical variables: all-positive, any-negative and
! a test that is false for exactly one element.
program reduction_and_or
  implicit none
  integer, parameter :: n = 10000
  real(8) :: a(n)
  logical :: all_pos, any_neg, all_small, any_big
  integer :: i, nfail
  nfail = 0
  a = [(1.0d0 + sin(dble(i)), i = 1, n)]
  a(n / 3) = 5.0d0
  all_pos = .true.
  any_neg = .false.
  all_small = .true.
  any_big = .false.
!$acc parallel loop copyin(a) reduction(.and.:all_pos, all_small) reduction(.or.:any_neg, any_big)
  do i = 1, n
    all_pos = all_pos .and. a(i) >= 0.0d0
    all_small = all_small .and. a(i) <= 2.0d0
    any_neg = any_neg .or. a(i) < 0.0d0
    any_big = any_big .or. a(i) > 4.0d0
  end do
  if (.not. all_pos .or. any_neg) nfail = nfail + 1
  if (all_small .or. .not. any_big) nfail = nfail + 1
  if ((all_small .neqv. all(a <= 2.0d0)) .or. (any_big .neqv. any(a > 4.0d0))) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program reduction_and_or
