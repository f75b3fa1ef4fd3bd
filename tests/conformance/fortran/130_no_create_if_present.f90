! no_create (use the device copy if present, else the host data) and update with if_present (no
! error when the data is not present), and an update with an if clause.
program no_create_if_present
  implicit none
  integer, parameter :: n = 400
  real(8) :: a(n), b(n)
  integer :: i, nfail
  logical :: doit
  nfail = 0
  a = 1.0d0
  b = 2.0d0
!$acc update self(a) if_present
!$acc parallel loop no_create(a) copy(b)
  do i = 1, n
    b(i) = b(i) + 1.0d0
  end do
!$acc data copy(a)
!$acc parallel loop no_create(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
  doit = .true.
!$acc update self(a) if(doit)
!$acc update device(b) if_present
!$acc end data
  do i = 1, n
    if (a(i) /= 1.0d0 + i .or. b(i) /= 3.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program no_create_if_present
