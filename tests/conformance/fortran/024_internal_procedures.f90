! Internal procedures (after contains in the program and in a subroutine) read and write their
! host's variables by host association, and may be called from each other.
program internal_procedures
  implicit none
  integer :: counter, nfail
  real(8) :: acc(10)
  nfail = 0
  counter = 0
  acc = 0.0d0
  call add_all(3)
  call add_all(4)
  if (counter /= 7) then
    nfail = nfail + 1
    print *, 'FAIL counter', counter
  end if
  if (abs(acc(3) - 7.0d0 * 3.0d0) > 1.0d-12) then
    nfail = nfail + 1
    print *, 'FAIL acc', acc(3)
  end if
  call outer(nfail)
  call exit(nfail)
contains
  subroutine add_all(k)
    integer, intent(in) :: k
    integer :: i
    do i = 1, k
      call tick()
    end do
    acc = acc + k * [(dble(i), i = 1, 10)]
  end subroutine add_all
  subroutine tick()
    counter = counter + 1
  end subroutine tick
end program internal_procedures

subroutine outer(nf)
  integer, intent(inout) :: nf
  integer :: local
  local = 5
  call times_ten()
  if (local /= 50) then
    nf = nf + 1
    print *, 'FAIL times_ten', local
  end if
contains
  subroutine times_ten()
    local = local * 10
  end subroutine times_ten
end subroutine outer
