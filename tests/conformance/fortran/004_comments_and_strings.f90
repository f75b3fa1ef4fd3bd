! Comments: `!` inside string literals is text, not a comment; both quote kinds, doubled quotes,
! comment-only lines and trailing comments; a line of only `;` is empty.
program comments_and_strings
  implicit none
  character(len=20) :: s1, s2, s3
  integer :: nfail
  nfail = 0   ! trailing comment
  ! full-line comment with 'quotes' and "quotes" and & an ampersand
  s1 = 'a!b'                ! the ! inside quotes is kept
  s2 = "it's"
  s3 = 'say ''hi'''
  if (len_trim(s1) /= 3 .or. s1(2:2) /= '!') then
    nfail = nfail + 1
    print *, 'FAIL s1 ', s1
  end if
  if (s2 /= "it's") then
    nfail = nfail + 1
    print *, 'FAIL s2 ', s2
  end if
  if (s3 /= "say 'hi'" .or. len_trim(s3) /= 8) then
    nfail = nfail + 1
    print *, 'FAIL s3 ', s3
  end if
  if (index(s1, '!') /= 2) then
    nfail = nfail + 1
    print *, 'FAIL index'
  end if
  call exit(nfail)
end program comments_and_strings
