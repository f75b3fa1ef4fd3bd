! The readonly modifier of copyin (OpenACC 3.0) on compute and data constructs, and cache
! (readonly: ...); the arrays are only read, and the results are those without the modifier.
! gfortran lacks the readonly modifier (gfortran 12: "Syntax error in OpenMP variable list").
program readonly_modifier
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(0:n + 1), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(mod(i, 9)), i = 0, n + 1)]
!$acc data copyin(readonly: a)
!$acc parallel loop copyin(readonly: a) copyout(b)
  do i = 1, n
!$acc cache(readonly: a(i-1:i+1))
    b(i) = a(i - 1) + a(i) + a(i + 1)
  end do
!$acc end data
  do i = 1, n
    if (b(i) /= a(i - 1) + a(i) + a(i + 1)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program readonly_modifier
