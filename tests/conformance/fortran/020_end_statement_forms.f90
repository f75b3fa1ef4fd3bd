! The end-statement forms: `end`, `end subroutine`, `end function name`, `endif`, `end if`,
! `enddo`, `end do`, `end select`, `endselect`, a program without a program statement's name repeated.
program end_statement_forms
  implicit none
  integer :: i, nfail, k
  nfail = 0
  k = 0
  do i = 1, 3
    if (i == 2) then
      k = k + 10
    else if (i == 3) then
      k = k + 100
    endif
  enddo
  select case (k)
  case (110)
    k = k + 1
  case default
    k = -1
  endselect
  if (k /= 111) then
    nfail = nfail + 1
    print *, 'FAIL k', k
  end if
  call bump(k)
  if (twice(k) /= 224) then
    nfail = nfail + 1
    print *, 'FAIL twice', twice(k)
  end if
  call exit(nfail)
contains
  subroutine bump(x)
    integer, intent(inout) :: x
    x = x + 1
  end subroutine
  integer function twice(x)
    integer, intent(in) :: x
    twice = 2 * x
  end function twice
end
