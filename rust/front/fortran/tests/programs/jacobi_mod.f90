! A module with a Jacobi sweep on an assumed-shape array, kinds from
! iso_fortran_env, a reduction with max, and collapse(2).
module jacobi_mod
  use, intrinsic :: iso_fortran_env, only: dp => real64
  implicit none
  private
  public :: sweep, dp
contains
  subroutine sweep(a, anew, n, m, err)
    integer, intent(in) :: n, m
    real(dp), intent(in) :: a(:,:)
    real(dp), intent(out) :: anew(size(a,1), size(a,2))
    real(dp), intent(out) :: err
    integer :: i, j
    err = 0.0_dp
    !$acc parallel loop collapse(2) reduction(max:err) &
    !$acc&   copyin(a) copy(anew)
    do j = 2, m - 1
      do i = 2, n - 1
        anew(i, j) = 0.25_dp * (a(i+1, j) + a(i-1, j) &
                              + a(i, j-1) + a(i, j+1))
        err = max(err, abs(anew(i, j) - a(i, j)))
      end do
    end do
    !$acc end parallel loop
  end subroutine sweep
end module jacobi_mod

program jacobi
  use jacobi_mod
  implicit none
  integer, parameter :: n = 64, m = 48
  real(dp), allocatable :: a(:,:), anew(:,:)
  real(dp) :: err, tol = 1.0e-6_dp
  integer :: iter, ios
  character(len=32) :: msg
  allocate(a(n, m), anew(n, m), stat=ios)
  if (ios /= 0) error stop "allocation failed"
  a = 0.0_dp
  a(1, :) = 1.0_dp
  anew = a
  iter = 0
  do while (iter < 100)
    call sweep(a, anew, n, m, err)
    a(2:n-1, 2:m-1) = anew(2:n-1, 2:m-1)
    iter = iter + 1
    if (err < tol) exit
  end do
  write(msg, '(a, i0)') 'iterations: ', iter
  print '(a)', trim(msg)
  write(*, '(es12.4)') sum(a)
  deallocate(a, anew)
end program jacobi
