! device_type (dtype) clauses on compute and loop constructs: values for one device type, for all
! others with device_type(*), and a plain clause before them; the results do not depend on which
! group applies. gfortran lacks device_type/dtype clauses (gfortran 12: "Failed to match clause").
program device_type_clauses
  implicit none
  integer, parameter :: n = 3000
  real(8) :: a(n)
  integer :: i, nfail
  nfail = 0
!$acc parallel loop copyout(a) num_gangs(4) device_type(nvidia) num_gangs(64) vector_length(128) &
!$acc   device_type(*) num_gangs(2)
  do i = 1, n
    a(i) = dble(i) * 0.25d0
  end do
!$acc parallel copy(a) dtype(host) num_workers(1)
!$acc loop gang vector device_type(nvidia) vector
  do i = 1, n
    a(i) = a(i) + 1.0d0
  end do
!$acc end parallel
  do i = 1, n
    if (a(i) /= 0.25d0 * i + 1.0d0) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program device_type_clauses
