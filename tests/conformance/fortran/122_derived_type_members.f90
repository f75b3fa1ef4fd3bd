! Derived-type members in data clauses and compute regions: a fixed-size array component and
! a scalar component of a type variable (copy(t%vals), copyin(t%scale)), and a whole derived-type
! scalar in copy.
program derived_type_members
  implicit none
  integer, parameter :: n = 512
  type :: series
    real(8) :: vals(n)
    real(8) :: scale
    integer :: count
  end type series
  type(series) :: s
  integer :: i, nfail
  nfail = 0
  s%vals = [(dble(i), i = 1, n)]
  s%scale = 0.5d0
  s%count = 0
!$acc parallel loop copy(s%vals) copyin(s%scale)
  do i = 1, n
    s%vals(i) = s%vals(i) * s%scale
  end do
!$acc serial copy(s)
  s%count = s%count + size(s%vals)
  s%vals(1) = -1.0d0
!$acc end serial
  if (s%count /= n .or. s%vals(1) /= -1.0d0) nfail = nfail + 1
  do i = 2, n
    if (s%vals(i) /= 0.5d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program derived_type_members
