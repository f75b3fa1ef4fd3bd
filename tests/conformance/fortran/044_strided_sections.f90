! Array sections with strides: a(1:n:2), a(n:1:-1), a(::3), 2-D sections with strides in both
! dimensions, assignment to a strided section, and size() of each.
program strided_sections
  implicit none
  integer, parameter :: n = 20
  integer :: a(n), r(n), m(6, 6), i, j, nfail
  nfail = 0
  a = [(i * i, i = 1, n)]
  if (size(a(1:n:2)) /= 10 .or. sum(a(1:n:2)) /= sum([(i * i, i = 1, n, 2)])) nfail = nfail + 1
  r = a(n:1:-1)
  if (r(1) /= n * n .or. r(n) /= 1) nfail = nfail + 1
  if (size(a(::3)) /= 7 .or. a(19) /= sum(a(19:19:3))) nfail = nfail + 1
  if (any(a(2:11:3) /= [4, 25, 64, 121])) nfail = nfail + 1
  if (size(a(5:4)) /= 0 .or. size(a(10:1:2)) /= 0) nfail = nfail + 1
  do j = 1, 6
    do i = 1, 6
      m(i, j) = 10 * i + j
    end do
  end do
  if (sum(m(1:6:2, 2:6:2)) /= sum([((10 * i + j, i = 1, 6, 2), j = 2, 6, 2)])) nfail = nfail + 1
  m(2:6:2, :) = 0
  if (sum(m(2, :)) /= 0 .or. m(3, 1) /= 31) nfail = nfail + 1
  a(n:1:-2) = -1
  if (a(n) /= -1 .or. a(n - 1) /= (n - 1)**2 .or. count(a == -1) /= 10) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program strided_sections
