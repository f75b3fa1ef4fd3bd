! The self clause on compute constructs (OpenACC 2.7+): self(.true.) runs the region on the host,
! self(.false.) on the current device, and plain self like self(.true.); results are the same.
! gfortran lacks the self clause on compute constructs (gfortran 12: "Failed to match clause").
program self_clause
  implicit none
  integer, parameter :: n = 800
  real(8) :: a(n)
  logical :: on_host
  integer :: i, nfail
  nfail = 0
  a = 1.0d0
  on_host = .true.
!$acc parallel loop self(on_host) copy(a)
  do i = 1, n
    a(i) = a(i) + i
  end do
!$acc parallel loop self(.false.) copy(a)
  do i = 1, n
    a(i) = a(i) * 2.0d0
  end do
!$acc serial self copy(a)
  a(1) = -a(1)
!$acc end serial
  if (a(1) /= -4.0d0) nfail = nfail + 1
  do i = 2, n
    if (a(i) /= 2.0d0 * (1.0d0 + i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program self_clause
