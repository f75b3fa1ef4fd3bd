! atomic update in its Fortran forms: x = x + expr, x = expr + x, x = x * expr, x = x - expr,
! x = max(x, expr), x = min(expr, x), x = iand(x, expr), x = ior(x, expr), x = ieor(x, expr),
! with and without the `update` keyword and the optional !$acc end atomic.
program atomic_update
  implicit none
  integer, parameter :: n = 1000
  integer :: cnt, neg, big, small, andv, orv, xorv, i, nfail
  real(8) :: s, p
  nfail = 0
  cnt = 0; neg = 0; big = -1; small = huge(1); andv = not(0); orv = 0; xorv = 0
  s = 0.0d0; p = 1.0d0
!$acc parallel loop copy(cnt, neg, big, small, andv, orv, xorv, s, p)
  do i = 1, n
!$acc atomic update
    cnt = cnt + 1
!$acc end atomic
!$acc atomic
    s = 0.5d0 + s
!$acc atomic
    neg = neg - 2
!$acc atomic update
    big = max(big, mod(i * 37, 1009))
!$acc atomic update
    small = min(mod(i * 37, 1009) + 5, small)
!$acc end atomic
!$acc atomic
    andv = iand(andv, ior(i, 1024))
!$acc atomic
    orv = ior(orv, i)
!$acc atomic
    xorv = ieor(xorv, i)
    if (mod(i, 100) == 0) then
!$acc atomic
      p = p * 2.0d0
    end if
  end do
  if (cnt /= n .or. neg /= -2 * n .or. s /= 0.5d0 * n) nfail = nfail + 1
  if (big /= maxval([(mod(i * 37, 1009), i = 1, n)])) nfail = nfail + 1
  if (small /= minval([(mod(i * 37, 1009), i = 1, n)]) + 5) nfail = nfail + 1
  if (andv /= 1024 .or. orv /= 1023) nfail = nfail + 1
  if (xorv /= ieor_all(n) .or. p /= 1024.0d0) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, cnt, neg, s, big, small, andv, orv, xorv, p
  call exit(nfail)
contains
  integer function ieor_all(m)
    integer, intent(in) :: m
    integer :: k
    ieor_all = 0
    do k = 1, m
      ieor_all = ieor(ieor_all, k)
    end do
  end function ieor_all
end program atomic_update
