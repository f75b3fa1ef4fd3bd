! A kernels region whose loop accumulates into a scalar with and without a reduction clause on
! the loop (kernels detects the reduction), and a loop with a private temporary it must infer.
program kernels_scalar_reduction
  implicit none
  integer, parameter :: n = 20000
  real(8) :: a(n), s1, s2, t
  integer :: i, nfail
  nfail = 0
  a = [(1.0d0 / dble(i), i = 1, n)]
  s1 = 0.0d0
  s2 = 0.0d0
!$acc kernels copyin(a) copy(s1, s2)
!$acc loop reduction(+:s1)
  do i = 1, n
    s1 = s1 + a(i)
  end do
  do i = 1, n
    t = a(i) * 2.0d0
    s2 = s2 + t
  end do
!$acc end kernels
  if (abs(s1 - sum(a)) > 1.0d-10 .or. abs(s2 - 2.0d0 * sum(a)) > 1.0d-10) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, s1, s2
  call exit(nfail)
end program kernels_scalar_reduction
