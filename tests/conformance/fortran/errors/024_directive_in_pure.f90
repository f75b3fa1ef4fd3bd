! expect: compile-error "pure" 9:7
! OpenACC directives may not appear in a pure procedure: the compute directive inside the pure
! function is reported at its directive name.
module pure_mod
contains
  pure real(8) function total(a)
    real(8), intent(in) :: a(:)
    integer :: i
!$acc parallel loop reduction(+:total)
    do i = 1, size(a)
      total = total + a(i)
    end do
  end function total
end module pure_mod

program directive_in_pure
  use pure_mod
  implicit none
  print *, total([1.0d0, 2.0d0])
end program directive_in_pure
