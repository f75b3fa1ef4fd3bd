! atomic read (v = x) and atomic write (x = expr) with optional end atomic lines: a flag written
! atomically by one iteration and the final value read atomically back.
program atomic_read_write
  implicit none
  integer, parameter :: n = 2000
  integer :: last, seen, i, nfail
  real(8) :: x, v
  nfail = 0
  last = 0
  x = 0.0d0
!$acc parallel loop copy(last, x)
  do i = 1, n
    if (i == n / 2) then
!$acc atomic write
      last = i
!$acc end atomic
!$acc atomic write
      x = 2.5d0 * i
    end if
  end do
!$acc serial copyin(last, x) copyout(seen, v)
!$acc atomic read
  seen = last
!$acc end atomic
!$acc atomic read
  v = x
!$acc end serial
  if (last /= n / 2 .or. seen /= n / 2) nfail = nfail + 1
  if (v /= 2.5d0 * (n / 2)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, last, seen, v
  call exit(nfail)
end program atomic_read_write
