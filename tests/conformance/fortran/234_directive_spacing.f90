! Directive spacing corner cases: `!$acc&clause` with no blank after the leading ampersand of a
! continuation, `!$acc &clause` and a continuation joined right after a `)` (no blank needed there),
! clause lists without blanks (copyin(a,b)copyout(c)), and tabs-free extra blanks inside clauses.
program directive_spacing
  implicit none
  integer, parameter :: n = 333
  integer :: a(n), b(n), c(n), i, nfail
  nfail = 0
  a = [(i, i = 1, n)]
  b = [(2 * i, i = 1, n)]
!$acc parallel loop &
!$acc&copyin(a)&
!$acc &copyin( b ) &
!$acc   copyout(  c  )
  do i = 1, n
    c(i) = a(i) + b(i)
  end do
  if (any(c /= [(3 * i, i = 1, n)])) nfail = nfail + 1
!$acc parallel loop copyin(a,b)copyout(c)
  do i = 1, n
    c(i) = b(i) - a(i)
  end do
  if (any(c /= a)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program directive_spacing
