! Dummy arguments by reference with intent(in), intent(out), intent(inout) and no intent: changes
! to inout/out dummies reach the actual argument; an array element passed as a scalar is updated.
program intent_arguments
  implicit none
  integer :: a, b, c, nfail
  integer :: v(4)
  nfail = 0
  a = 3
  b = -1
  c = 10
  call work(a, b, c)
  if (a /= 3 .or. b /= 6 .or. c /= 16) then
    nfail = nfail + 1
    print *, 'FAIL work', a, b, c
  end if
  v = [1, 2, 3, 4]
  call work(v(1), v(2), v(3))
  if (any(v /= [1, 2, 5, 4])) then
    nfail = nfail + 1
    print *, 'FAIL elements', v
  end if
  call no_intent(v(4))
  if (v(4) /= 40) nfail = nfail + 1
  call exit(nfail)
contains
  subroutine work(x, y, z)
    integer, intent(in) :: x
    integer, intent(out) :: y
    integer, intent(inout) :: z
    y = 2 * x
    z = z + y
  end subroutine work
  subroutine no_intent(w)
    integer :: w
    w = w * 10
  end subroutine no_intent
end program intent_arguments
