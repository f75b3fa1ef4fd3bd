! Device code mixing features: complex intrinsics (exp, abs, conjg, real, aimag) per element, a
! named inner search loop left with exit name, and array intrinsics (maxval, minval, any, count)
! over a small local array, all inside one parallel loop with private work arrays.
! The device's exp/sin may differ from the host's in the last bit (nvidia's libdevice): results
! are compared with relative tolerances, not for equality.
program device_code_mix
  implicit none
  integer, parameter :: n = 400, k = 8
  complex(8) :: z(n)
  real(8) :: mag(n), hi(n), lo(n), w(k), want
  integer :: found(n), cnt(n), i, j, nfail
  logical :: anyneg(n)
  nfail = 0
  do i = 1, n
    z(i) = cmplx(0.01d0 * i, -0.02d0 * i, kind=8)
  end do
!$acc parallel loop copyin(z) copyout(mag, hi, lo, found, cnt, anyneg) private(w, j)
  do i = 1, n
    mag(i) = abs(exp(z(i)) * conjg(z(i))) + real(z(i)) - aimag(z(i))
    do j = 1, k
      w(j) = sin(dble(i * j))
    end do
    hi(i) = maxval(w)
    lo(i) = minval(w)
    anyneg(i) = any(w < -0.9d0)
    cnt(i) = count(w > 0.0d0)
    found(i) = 0
    search: do j = 1, k
      if (w(j) > 0.5d0) then
        found(i) = j
        exit search
      end if
    end do search
  end do
  do i = 1, n
    want = abs(exp(z(i)) * conjg(z(i))) + real(z(i)) - aimag(z(i))
    if (abs(mag(i) - want) > 1.0d-12 * abs(want)) nfail = nfail + 1
    do j = 1, k
      w(j) = sin(dble(i * j))
    end do
    if (abs(hi(i) - maxval(w)) > 1.0d-14 .or. abs(lo(i) - minval(w)) > 1.0d-14) nfail = nfail + 1
    if ((anyneg(i) .neqv. any(w < -0.9d0)) .or. cnt(i) /= count(w > 0.0d0)) nfail = nfail + 1
    j = findloc_first(w)
    if (found(i) /= j) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  integer function findloc_first(v)
    real(8), intent(in) :: v(:)
    integer :: q
    findloc_first = 0
    do q = 1, size(v)
      if (v(q) > 0.5d0) then
        findloc_first = q
        return
      end if
    end do
  end function findloc_first
end program device_code_mix
