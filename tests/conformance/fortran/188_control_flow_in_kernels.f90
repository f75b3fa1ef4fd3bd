! Control flow in device code: select case, if/else if chains, a do while loop, an inner loop
! (sequential: no loop directive, which may not be left by exit) with exit and cycle, and an integer(8) loop index in a parallel loop.
program control_flow_in_kernels
  implicit none
  integer, parameter :: n = 2000
  integer :: cls(n), steps(n), firstdiv(n), nfail
  integer(8) :: i
  integer :: j, m
  nfail = 0
!$acc parallel loop copyout(cls, steps, firstdiv) private(m, j)
  do i = 1_8, int(n, 8)
    select case (mod(i, 10_8))
    case (0)
      cls(i) = 0
    case (1:4)
      cls(i) = 1
    case default
      cls(i) = 2
    end select
    m = int(i)
    steps(i) = 0
    do while (m /= 1)
      if (mod(m, 2) == 0) then
        m = m / 2
      else
        m = 3 * m + 1
      end if
      steps(i) = steps(i) + 1
    end do
    firstdiv(i) = 0
    do j = 2, 50
      if (j >= int(i)) exit
      if (mod(int(i), j) /= 0) cycle
      firstdiv(i) = j
      exit
    end do
  end do
  do j = 1, n
    if (cls(j) /= merge(0, merge(1, 2, mod(j, 10) <= 4), mod(j, 10) == 0)) nfail = nfail + 1
    if (steps(j) /= collatz(j)) nfail = nfail + 1
    if (firstdiv(j) /= first_divisor(j)) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
contains
  integer function collatz(start)
    integer, intent(in) :: start
    integer :: v
    v = start
    collatz = 0
    do while (v /= 1)
      v = merge(v / 2, 3 * v + 1, mod(v, 2) == 0)
      collatz = collatz + 1
    end do
  end function collatz
  integer function first_divisor(v)
    integer, intent(in) :: v
    integer :: d
    first_divisor = 0
    do d = 2, min(50, v - 1)
      if (mod(v, d) == 0) then
        first_divisor = d
        return
      end if
    end do
  end function first_divisor
end program control_flow_in_kernels
