! enter data / exit data with if clauses (a false if skips the transfer) and finalize on exit
! data after two enters (the dynamic reference count drops to zero at once).
program enter_data_if_finalize
  use openacc
  implicit none
  integer, parameter :: n = 500
  real(8) :: a(n)
  integer :: i, nfail
  logical :: go
  nfail = 0
  a = 3.0d0
  go = .false.
!$acc enter data copyin(a) if(go)
  if (acc_is_present(a) .and. .not. shared_memory()) nfail = nfail + 1
  go = .true.
!$acc enter data copyin(a) if(go)
!$acc enter data copyin(a)
!$acc parallel loop present(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
!$acc exit data copyout(a) finalize
  if (acc_is_present(a) .and. .not. shared_memory()) nfail = nfail + 1
  do i = 1, n
    if (a(i) /= 3.0d0 + i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  logical function shared_memory()
    ! gfortran's host fallback reports every address as present; accjit keeps a present table
    shared_memory = .false.
#ifdef ACCJIT_GFORTRAN_VALIDATION
    shared_memory = .true.
#endif
  end function shared_memory
end program enter_data_if_finalize
