! Comments in directives: a trailing `! comment` after the clauses (also after the `&` of a
! continued directive), and a comment line between a loop directive and its DO.
program directive_comments
  implicit none
  integer, parameter :: n = 900
  real(8) :: a(n), b(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i) / 9.0d0, i = 1, n)]
!$acc parallel loop copyin(a) & ! the inputs
!$acc copyout(b)                ! and the outputs
  ! a comment line between the directive and its loop
  do i = 1, n
    b(i) = 9.0d0 * a(i)   ! back to i
  end do
!$acc end parallel loop ! done
!$acc serial copy(b) ! one more
  b(1) = b(1) + 1.0d0
!$acc end serial
  do i = 2, n
    if (abs(b(i) - dble(i)) > 1.0d-12) nfail = nfail + 1
  end do
  if (abs(b(1) - 2.0d0) > 1.0d-12) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program directive_comments
