! An array of derived-type elements (array of structures) in a data clause and a parallel loop that
! reads and writes components of each element.
program array_of_structures
  implicit none
  type :: particle
    real(8) :: x, y, vx, vy
    integer :: id
  end type particle
  integer, parameter :: n = 1000
  type(particle) :: p(n)
  real(8), parameter :: dt = 0.1d0
  integer :: i, nfail
  nfail = 0
  do i = 1, n
    p(i) = particle(dble(i), -dble(i), 1.0d0 / i, 2.0d0, i)
  end do
!$acc parallel loop copy(p)
  do i = 1, n
    p(i)%x = p(i)%x + dt * p(i)%vx
    p(i)%y = p(i)%y + dt * p(i)%vy
    p(i)%id = -p(i)%id
  end do
  do i = 1, n
    if (abs(p(i)%x - (i + dt / i)) > 1.0d-12 .or. abs(p(i)%y - (-i + 2 * dt)) > 1.0d-12) nfail = nfail + 1
    if (p(i)%id /= -i .or. p(i)%vy /= 2.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program array_of_structures
