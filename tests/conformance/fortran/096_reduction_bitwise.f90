! reduction(iand:), reduction(ior:) and reduction(ieor:) on default and 8-byte integers, written
! with the intrinsic calls the Fortran reduction operators name.
program reduction_bitwise
  implicit none
  integer, parameter :: n = 4096
  integer :: v(n), a, o, x, i, nfail
  integer(8) :: o8
  nfail = 0
  do i = 1, n
    v(i) = ieor(mod(i * 7919, 65521), ishft(i, 7))
  end do
  a = not(0)
  o = 0
  x = 0
  o8 = 0
!$acc parallel loop copyin(v) reduction(iand:a) reduction(ior:o, o8) reduction(ieor:x)
  do i = 1, n
    a = iand(a, ior(v(i), 1))
    o = ior(o, v(i))
    x = ieor(x, v(i))
    o8 = ior(o8, ishft(int(mod(i, 64), 8), 32))
  end do
  if (a /= iall_host(v) .or. o /= iany_host(v) .or. x /= iparity_host(v)) nfail = nfail + 1
  if (o8 /= ishft(63_8, 32)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, a, o, x
  call exit(nfail)
contains
  integer function iall_host(w)
    integer, intent(in) :: w(:)
    integer :: k
    iall_host = not(0)
    do k = 1, size(w)
      iall_host = iand(iall_host, ior(w(k), 1))
    end do
  end function iall_host
  integer function iany_host(w)
    integer, intent(in) :: w(:)
    integer :: k
    iany_host = 0
    do k = 1, size(w)
      iany_host = ior(iany_host, w(k))
    end do
  end function iany_host
  integer function iparity_host(w)
    integer, intent(in) :: w(:)
    integer :: k
    iparity_host = 0
    do k = 1, size(w)
      iparity_host = ieor(iparity_host, w(k))
    end do
  end function iparity_host
end program reduction_bitwise
