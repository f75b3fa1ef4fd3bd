! pointer and target for the common cases: a scalar pointer, an array pointer to a whole target,
! to a section (with its bounds), associated()/nullify, allocate through a pointer, and writes
! through the pointer seen in the target.
program pointer_target
  implicit none
  integer, target :: x
  real(8), target :: arr(10), mat(4, 4)
  integer, pointer :: px
  real(8), pointer :: p(:), col(:), q(:)
  integer :: i, nfail
  nfail = 0
  nullify(px, p)
  if (associated(px) .or. associated(p)) nfail = nfail + 1
  x = 5
  px => x
  px = px + 1
  if (x /= 6 .or. .not. associated(px, x)) nfail = nfail + 1
  arr = [(dble(i), i = 1, 10)]
  p => arr
  p(3) = -3.0d0
  if (arr(3) /= -3.0d0 .or. size(p) /= 10) nfail = nfail + 1
  p => arr(2:10:2)
  if (size(p) /= 5 .or. p(1) /= 2.0d0 .or. p(5) /= 10.0d0) nfail = nfail + 1
  p = 0.0d0
  if (sum(arr) /= 1.0d0 - 3.0d0 + 5.0d0 + 7.0d0 + 9.0d0) nfail = nfail + 1
  mat = 1.0d0
  col => mat(:, 3)
  col = 7.0d0
  if (sum(mat) /= 12.0d0 + 28.0d0) nfail = nfail + 1
  allocate(q(3))
  q = [1.0d0, 2.0d0, 3.0d0]
  if (sum(q) /= 6.0d0) nfail = nfail + 1
  deallocate(q)
  if (associated(q)) nfail = nfail + 1
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program pointer_target
