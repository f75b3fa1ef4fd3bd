! A private work array per gang (private on a gang loop) filled and read by an inner vector loop,
! and a private scalar per vector lane; each row's result depends only on its own work array.
program vector_private_array
  implicit none
  integer, parameter :: n = 50, m = 64
  real(8) :: out(n), work(m), t
  integer :: i, k, nfail
  nfail = 0
!$acc parallel loop gang private(work) copyout(out)
  do i = 1, n
!$acc loop vector private(t)
    do k = 1, m
      t = dble(i * k)
      work(k) = t / m
    end do
    out(i) = 0.0d0
!$acc loop seq
    do k = 1, m
      out(i) = out(i) + work(k)
    end do
  end do
  do i = 1, n
    if (abs(out(i) - dble(i) * (m + 1) / 2.0d0) > 1.0d-10) nfail = nfail + 1
  end do
  if (nfail /= 0) print *, 'FAIL', nfail
  call exit(nfail)
end program vector_private_array
