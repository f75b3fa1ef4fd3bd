! An absent optional dummy in data clauses (OpenACC 2.17.1): the clause is ignored when the
! argument is absent, and present() inside the compute region answers as on the host, so one
! subroutine serves calls with and without the optional array.
module opt_data_mod
  implicit none
contains
  subroutine axpy_opt(a, y, n, extra)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n)
    real(8), intent(inout) :: y(n)
    real(8), intent(in), optional :: extra(n)
    integer :: i
!$acc parallel loop copyin(a, extra) copy(y)
    do i = 1, n
      if (present(extra)) then
        y(i) = y(i) + a(i) * extra(i)
      else
        y(i) = y(i) + a(i)
      end if
    end do
  end subroutine axpy_opt
end module opt_data_mod

program absent_optional_in_clauses
  use opt_data_mod
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n), y(n), e(n)
  integer :: i, nfail
  nfail = 0
  a = [(dble(i), i = 1, n)]
  e = 2.0d0
  y = 0.0d0
  call axpy_opt(a, y, n)
  call axpy_opt(a, y, n, e)
  do i = 1, n
    if (y(i) /= 3.0d0 * i) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program absent_optional_in_clauses
