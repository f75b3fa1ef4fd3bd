! Module procedures with private helpers and public entry points; one module procedure calls
! another; module data is private and reached through accessors.
module stats
  implicit none
  private
  public :: mean, variance, count_calls
  integer :: ncalls = 0
contains
  real(8) function mean(x)
    real(8), intent(in) :: x(:)
    mean = total(x) / size(x)
  end function mean
  real(8) function variance(x)
    real(8), intent(in) :: x(:)
    real(8) :: m
    m = mean(x)
    variance = total((x - m)**2) / size(x)
  end function variance
  real(8) function total(x)
    real(8), intent(in) :: x(:)
    integer :: i
    ncalls = ncalls + 1
    total = 0.0d0
    do i = 1, size(x)
      total = total + x(i)
    end do
  end function total
  integer function count_calls()
    count_calls = ncalls
  end function count_calls
end module stats

program module_procedures
  use stats
  implicit none
  real(8) :: x(200), m, v, mm, vv
  integer :: i, nfail
  nfail = 0
  do i = 1, 200
    x(i) = mod(i * 17, 23) * 0.5d0
  end do
  m = sum(x) / 200
  v = sum((x - m)**2) / 200
  mm = mean(x)
  vv = variance(x)
  if (abs(mm - m) > 1.0d-12 .or. abs(vv - v) > 1.0d-10) then
    nfail = nfail + 1
    print *, 'FAIL', mm, m, vv, v
  end if
  if (count_calls() /= 3) then
    nfail = nfail + 1
    print *, 'FAIL calls', count_calls()
  end if
  call exit(nfail)
end program module_procedures
