! Implicit data attributes: a parallel loop with no data clauses (arrays are copy, scalars
! firstprivate), a kernels region assigning a scalar (scalars are copy in kernels, so the host sees
! it), and a module array used in a compute construct without clauses.
module shared_data
  implicit none
  integer, parameter :: nm = 256
  real(8) :: mod_arr(nm)
end module shared_data

program implicit_data_attributes
  use shared_data
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), f, total
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  f = 3.0d0
!$acc parallel loop
  do i = 1, n
    a(i) = a(i) * f
  end do
  total = 0.0d0
!$acc kernels
  total = a(1) + a(n)
!$acc end kernels
  mod_arr = 1.0d0
!$acc parallel loop
  do i = 1, nm
    mod_arr(i) = mod_arr(i) + i
  end do
  do i = 1, n
    if (a(i) /= 3.0d0 * i) nfail = nfail + 1
  end do
  if (total /= 3.0d0 * (1 + n)) nfail = nfail + 1
  if (mod_arr(nm) /= 1.0d0 + nm .or. mod_arr(1) /= 2.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, total
  call exit(nfail)
end program implicit_data_attributes
