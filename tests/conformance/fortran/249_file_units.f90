! Files on units as gfortran opens them: open(unit=/newunit=, file=, status= replace/old/new/scratch,
! action=, position='append'), formatted and list-directed writes of results a parallel loop
! computed, close and reopen to read them back, rewind, backspace, end= and err= labels, iostat=
! with gfortran's values (the errno of a refused open: 2 for a missing file; -1 at end of file),
! close(status='delete').
program file_units
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n), back(n), x
  integer :: u, v, i, k, ios, nfail, lines
  character(len=48) :: fname
  integer(8) :: tick
  nfail = 0
  ! a name of its own: the harness runs this program on several devices at once in one folder
  call system_clock(tick)
  write(fname, '(A, I0, A)') 'accjit_249_', tick, '.txt'
!$acc parallel loop copyout(a)
  do i = 1, n
    a(i) = dble(i * i) / 16.0d0 - 3.0d0
  end do
  open(newunit=u, file=trim(fname), status='replace', action='write')
  if (u >= 0) nfail = nfail + 1
  do i = 1, n
    write(u, '(I4, 1X, ES24.16)') i, a(i)
  end do
  close(u)
  ! status='new' on an existing file fails (EEXIST, 17; gfortran 12 says 2 the first time in a
  ! process, a stale errno, so only the failure is checked)
  open(unit=24, file=trim(fname), status='new', iostat=ios)
  if (ios <= 0) nfail = nfail + 1
  ! a failed open leaves newunit= as it was
  v = 123
  open(newunit=v, file='accjit_249_no_such_dir/x.txt', status='old', iostat=ios)
  if (ios /= 2 .or. v /= 123) nfail = nfail + 1
  ! read it back, to the end
  open(unit=21, file=trim(fname), status='old', action='read')
  lines = 0
  do
    read(21, '(I4, 1X, ES24.16)', end=10) k, x
    lines = lines + 1
    back(k) = x
  end do
10 continue
  if (lines /= n) nfail = nfail + 1
  if (any(back /= a)) nfail = nfail + 1
  ! rewind and backspace
  rewind(21)
  read(21, *) k, x
  read(21, *) k, x
  backspace(21)
  read(21, *) k, x
  if (k /= 2 .or. x /= a(2)) nfail = nfail + 1
  close(21)
  ! append, then count the records
  open(unit=22, file=trim(fname), status='old', position='append', action='write')
  write(22, *) 'appended', n + 1
  close(22)
  open(unit=22, file=trim(fname), status='old')
  lines = 0
  do
    read(22, '(A)', iostat=ios) 
    if (ios /= 0) exit
    lines = lines + 1
  end do
  if (ios /= -1 .or. lines /= n + 1) nfail = nfail + 1
  close(22, status='delete')
  ! the file is gone: status='old' now fails with ENOENT, through err= and iostat=
  open(unit=23, file=trim(fname), status='old', err=20, iostat=ios)
  nfail = nfail + 1
20 if (ios /= 2) nfail = nfail + 1
  ! a scratch file
  open(newunit=u, status='scratch')
  write(u, *) sum(a), n
  rewind(u)
  read(u, *) x, k
  if (abs(x - sum(a)) > 1.0d-12 * abs(sum(a)) .or. k /= n) nfail = nfail + 1
  close(u)
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program file_units
