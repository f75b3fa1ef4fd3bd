! recursive functions and subroutines: factorial with result(), Fibonacci, Ackermann-small, and a
! recursive subroutine filling an array (quicksort), checked against iterative versions.
program recursive_procedures
  implicit none
  integer :: nfail, i
  integer :: a(50)
  integer(8) :: f
  nfail = 0
  f = 1
  do i = 1, 15
    f = f * i
  end do
  if (fact(15) /= f) nfail = nfail + 1
  if (fib(20) /= 6765) nfail = nfail + 1
  do i = 1, 50
    a(i) = mod(i * 7919, 101)
  end do
  call qsort(a, 1, 50)
  do i = 2, 50
    if (a(i - 1) > a(i)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail, fact(15), fib(20)
  call exit(nfail)
contains
  recursive function fact(n) result(r)
    integer, intent(in) :: n
    integer(8) :: r
    if (n <= 1) then
      r = 1
    else
      r = n * fact(n - 1)
    end if
  end function fact
  recursive integer function fib(n) result(r)
    integer, intent(in) :: n
    if (n < 2) then
      r = n
    else
      r = fib(n - 1) + fib(n - 2)
    end if
  end function fib
  recursive subroutine qsort(v, lo, hi)
    integer, intent(inout) :: v(:)
    integer, intent(in) :: lo, hi
    integer :: p, i, j, t
    if (lo >= hi) return
    p = v((lo + hi) / 2)
    i = lo
    j = hi
    do while (i <= j)
      do while (v(i) < p)
        i = i + 1
      end do
      do while (v(j) > p)
        j = j - 1
      end do
      if (i <= j) then
        t = v(i); v(i) = v(j); v(j) = t
        i = i + 1; j = j - 1
      end if
    end do
    call qsort(v, lo, j)
    call qsort(v, i, hi)
  end subroutine qsort
end program recursive_procedures
