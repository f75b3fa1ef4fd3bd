! character variables as programs use them for messages: arrays of fixed-length strings,
! substrings assigned in place, character dummies of assumed length (len=*), select on a string,
! and building a message with internal write.
program character_variables
  implicit none
  character(len=6) :: names(3)
  character(len=40) :: msg
  integer :: i, total, nfail
  nfail = 0
  names = ['alpha ', 'beta  ', 'gamma ']
  total = 0
  do i = 1, 3
    total = total + len_trim(names(i))
  end do
  if (total /= 14) nfail = nfail + 1
  names(2)(1:1) = 'B'
  if (names(2) /= 'Beta') nfail = nfail + 1
  if (count_vowels(names(3)) /= 2 .or. count_vowels('aeiou xyz') /= 5) nfail = nfail + 1
  write(msg, '(A, " has ", I0, " letters")') trim(names(1)), len_trim(names(1))
  if (msg /= 'alpha has 5 letters') then
    nfail = nfail + 1
    print *, 'FAIL msg [', trim(msg), ']'
  end if
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  integer function count_vowels(s)
    character(len=*), intent(in) :: s
    integer :: k
    count_vowels = 0
    do k = 1, len(s)
      select case (s(k:k))
      case ('a', 'e', 'i', 'o', 'u')
        count_vowels = count_vowels + 1
      end select
    end do
  end function count_vowels
end program character_variables
