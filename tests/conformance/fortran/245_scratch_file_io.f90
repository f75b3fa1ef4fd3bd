! File I/O beyond the standard units: open(newunit=, status='scratch'), formatted and list-directed
! writes of results computed in a parallel loop, rewind, read back and compare, close; iostat on
! reading past the end.
program scratch_file_io
  implicit none
  integer, parameter :: n = 50
  real(8) :: a(n), back(n)
  integer :: u, i, k, ios, nfail
  nfail = 0
!$acc parallel loop copyout(a)
  do i = 1, n
    a(i) = dble(i) / 8.0d0
  end do
  open(newunit=u, status='scratch', form='formatted', action='readwrite')
  do i = 1, n
    write(u, '(I4, 1X, F12.6)') i, a(i)
  end do
  write(u, *) 'end', n
  rewind(u)
  do i = 1, n
    read(u, '(I4, 1X, F12.6)') k, back(i)
    if (k /= i) nfail = nfail + 1
  end do
  read(u, *) 
  read(u, *, iostat=ios) k
  if (ios >= 0) nfail = nfail + 1
  close(u)
  if (any(back /= a)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program scratch_file_io
