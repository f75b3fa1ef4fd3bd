! List-directed input forms (from the `! stdin:` lines): comma and blank separators, repeat
! counts r*value, a quoted string with a blank, logical values .true./F, a slash ending a read
! early (the rest keep their values), a complex (re, im), and reading an array across lines.
! stdin: 1, 2 ,3
! stdin: 3*2.5 'two words' .true. F
! stdin: 7 /
! stdin: (1.5, -2.0)
! stdin: 10 20
! stdin: 30 40
program list_directed_read_forms
  implicit none
  integer :: i, j, k, m, v(4), nfail
  real(8) :: r(3)
  character(len=12) :: s
  logical :: l1, l2
  complex(8) :: z
  nfail = 0
  read(*, *) i, j, k
  read(*, *) r, s, l1, l2
  m = -99
  read(*, *) i, m
  read(*, *) z
  read(*, *) v
  if (j /= 2 .or. k /= 3 .or. i /= 7 .or. m /= -99) nfail = nfail + 1
  if (any(r /= 2.5d0) .or. s /= 'two words' .or. .not. l1 .or. l2) nfail = nfail + 1
  if (z /= (1.5d0, -2.0d0) .or. any(v /= [10, 20, 30, 40])) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail, i, j, k, m, r, s, l1, l2, z, v
  call exit(nfail)
end program list_directed_read_forms
