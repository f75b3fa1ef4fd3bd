! Directive spellings: upper/mixed case sentinels and names, spaces between sentinel and name,
! clauses separated by commas or blanks, `end parallel loop` optional, `enddo`/`endif` forms.
program directive_spellings
  implicit none
  integer, parameter :: n = 128
  integer :: a(n), b(n), i, nfail
  nfail = 0
  a = [(3 * i - 1, i = 1, n)]
!$ACC   PARALLEL   LOOP   COPYIN(A), COPYOUT(B)
  do i = 1, n
    b(i) = a(i) + i
  enddo
!$Acc Data Copy(b)
!$acc kernels
  b(1) = -1
!$acc end kernels
!$ACC END DATA
  do i = 2, n
    if (b(i) /= 4 * i - 1) then
      nfail = nfail + 1
    endif
  end do
  if (b(1) /= -1) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program directive_spellings
