! save: an explicitly saved local, the implied save of a local initialised in its declaration,
! and a saved array; each keeps its value from one call to the next.
program save_variables
  implicit none
  integer :: i, nfail, r
  nfail = 0
  do i = 1, 5
    r = counter()
  end do
  if (r /= 5) nfail = nfail + 1
  do i = 1, 4
    r = implied()
  end do
  if (r /= 40) nfail = nfail + 1
  do i = 1, 3
    call history(i * i)
  end do
  call history(0)
  if (nfail /= 0) print *, 'FAIL', nfail, r
  call exit(nfail)
contains
  integer function counter()
    integer, save :: n = 0
    n = n + 1
    counter = n
  end function counter
  integer function implied()
    integer :: total = 0
    total = total + 10
    implied = total
  end function implied
  subroutine history(v)
    integer, intent(in) :: v
    integer, save :: seen(10), count
    data count /0/
    if (v == 0) then
      if (count /= 3 .or. any(seen(1:3) /= [1, 4, 9])) then
        nfail = nfail + 1
        print *, 'FAIL history', seen(1:count)
      end if
      return
    end if
    count = count + 1
    seen(count) = v
  end subroutine history
end program save_variables
