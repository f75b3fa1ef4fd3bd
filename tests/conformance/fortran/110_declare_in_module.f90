! !$acc declare create(...) of module arrays: the device copy exists for the whole program; host
! values are moved with update device / update self, and a routine in the module uses them.
module field_mod
  implicit none
  integer, parameter :: n = 1024
  real(8) :: field(n), coeff(n)
!$acc declare create(field, coeff)
end module field_mod

program declare_in_module
  use field_mod
  implicit none
  integer :: i, nfail
  nfail = 0
  coeff = [(1.0d0 / i, i = 1, n)]
  field = 0.0d0
!$acc update device(coeff, field)
!$acc parallel loop present(field, coeff)
  do i = 1, n
    field(i) = coeff(i) * i + 1.0d0
  end do
!$acc update self(field)
  do i = 1, n
    if (abs(field(i) - 2.0d0) > 1.0d-12) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program declare_in_module
