! write in device code to a unit the host connected (a scratch file), formatted with a literal
! format: a gang loop writes one record per iteration, in no defined order across threads; the
! host reads the records back and checks them as a set: each iteration's record exactly once,
! whole, with its values (so the records of threads writing at once do not mix).
program write_gang_loop_unit
  implicit none
  integer, parameter :: n = 96
  integer :: i, k, u, ios, v(n), seen(n), got, bad, records
  real(8) :: x(n), y
  do i = 1, n
    x(i) = sin(0.37d0 * i) * 100.0d0 + i
  end do
  open(newunit=u, status='scratch', action='readwrite')
!$acc parallel loop gang vector copyin(x) copyout(v)
  do i = 1, n
    v(i) = int(x(i) * 3.0d0) + 7 * i
    write(u, '(I6,1X,I8,1X,F14.4)') i, v(i), x(i) * 2.0d0
  end do
  rewind(u)
  seen = 0
  bad = 0
  records = 0
  do
    read(u, *, iostat=ios) k, got, y
    if (ios /= 0) exit
    records = records + 1
    if (k < 1 .or. k > n) then
      bad = bad + 1
      cycle
    end if
    seen(k) = seen(k) + 1
    if (got /= int(x(k) * 3.0d0) + 7 * k) bad = bad + 1
    if (abs(y - x(k) * 2.0d0) > 1.0d-3) bad = bad + 1
  end do
  close(u)
  if (ios > 0) print *, 'FAIL read error', ios
  if (records /= n) print *, 'FAIL records', records, n
  if (any(seen /= 1)) print *, 'FAIL iterations written other than once', count(seen /= 1)
  if (bad /= 0) print *, 'FAIL bad records', bad
  do i = 1, n
    if (v(i) /= int(x(i) * 3.0d0) + 7 * i) then
      print *, 'FAIL v', i
      exit
    end if
  end do
end program write_gang_loop_unit
