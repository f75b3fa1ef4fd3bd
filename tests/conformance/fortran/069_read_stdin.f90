! read(*,*) from standard input (the harness feeds the `! stdin:` lines below): integers, reals
! and a count followed by that many values, checked against what was sent.
! stdin: 3 -7
! stdin: 2.5 1.0d-2
! stdin: 4
! stdin: 1.5 2.5 3.5 4.5
program read_stdin
  implicit none
  integer :: a, b, n, nfail
  real(8) :: x, y
  real(8), allocatable :: v(:)
  nfail = 0
  read(*, *) a, b
  read(*, *) x, y
  read(*, *) n
  allocate(v(n))
  read(*, *) v
  if (a /= 3 .or. b /= -7) nfail = nfail + 1
  if (x /= 2.5d0 .or. abs(y - 0.01d0) > 1.0d-17) nfail = nfail + 1
  if (n /= 4 .or. sum(v) /= 12.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, a, b, x, y, n
  call exit(nfail)
end program read_stdin
