! The conditional-compilation sentinel `!$ ` in free form: such lines are compiled when OpenACC is
! enabled (as gfortran -fopenacc does), including a continued one; `!$acc` stays a directive and
! `!$x` lines are comments. gfortran compiles `!$` lines only with -fopenmp (OpenMP's rule), hence:
! gfortran-flags: -fopenmp
program conditional_sentinel
  implicit none
  integer :: flag, nfail, extra
  nfail = 0
  flag = 0
  extra = 0
!$ flag = 1
!$ extra = extra + &
!$   5
  if (flag /= 1) then
    nfail = nfail + 1
    print *, 'FAIL !$ line not compiled'
  end if
  if (extra /= 5) then
    nfail = nfail + 1
    print *, 'FAIL continued !$ line', extra
  end if
!$acc serial copy(flag)
  flag = flag + 1
!$acc end serial
  if (flag /= 2) then
    nfail = nfail + 1
    print *, 'FAIL serial', flag
  end if
  call exit(nfail)
end program conditional_sentinel
