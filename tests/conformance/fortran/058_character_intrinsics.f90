! character(len=n) scalars: assignment with blank padding and truncation, trim, len, len_trim,
! concatenation, comparison (blank-padded), substrings, index, adjustl, and character arguments.
program character_intrinsics
  implicit none
  character(len=10) :: a, b
  character(len=3) :: short
  character(len=:), allocatable :: joined
  integer :: nfail
  nfail = 0
  a = 'abc'
  b = 'abc       '
  if (a /= b .or. len(a) /= 10 .or. len_trim(a) /= 3) nfail = nfail + 1
  if (a /= 'abc') nfail = nfail + 1
  short = 'abcdef'
  if (short /= 'abc') nfail = nfail + 1
  joined = trim(a) // '-' // trim(short) // '!'
  if (joined /= 'abc-abc!' .or. len(joined) /= 8) nfail = nfail + 1
  if (a(2:3) /= 'bc' .or. a(3:3) /= 'c') nfail = nfail + 1
  a(1:1) = 'X'
  if (a /= 'Xbc') nfail = nfail + 1
  if (index('hello world', 'o w') /= 5 .or. index('hello', 'z') /= 0) nfail = nfail + 1
  if (adjustl('   left') /= 'left' .or. len(adjustl('  x')) /= 3) nfail = nfail + 1
  if (.not. ('apple' < 'banana') .or. 'b' < 'a') nfail = nfail + 1
  if (greet('Ada') /= 'hi Ada') nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  function greet(name) result(s)
    character(len=*), intent(in) :: name
    character(len=3 + len(name)) :: s
    s = 'hi ' // name
  end function greet
end program character_intrinsics
