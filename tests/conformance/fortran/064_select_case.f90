! select case on integers (single values, lists, ranges lo:hi, open ranges :hi and lo:, default),
! on characters, and on logical values.
program select_case_forms
  implicit none
  integer :: i, got(8), nfail
  character(len=5) :: word
  logical :: flag
  integer :: vals(8) = [-10, 0, 1, 4, 5, 9, 42, 1000]
  nfail = 0
  do i = 1, 8
    select case (vals(i))
    case (:-1)
      got(i) = 1
    case (0, 4)
      got(i) = 2
    case (1:3, 5)
      got(i) = 3
    case (6:41)
      got(i) = 4
    case (500:)
      got(i) = 5
    case default
      got(i) = 6
    end select
  end do
  if (any(got /= [1, 2, 3, 2, 3, 4, 6, 5])) nfail = nfail + 1
  word = 'beta'
  select case (trim(word))
  case ('alpha')
    i = 1
  case ('beta', 'gamma')
    i = 2
  case default
    i = 3
  end select
  if (i /= 2) nfail = nfail + 1
  flag = .false.
  select case (flag)
  case (.true.)
    i = 10
  case (.false.)
    i = 20
  end select
  if (i /= 20) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, got
  call exit(nfail)
end program select_case_forms
