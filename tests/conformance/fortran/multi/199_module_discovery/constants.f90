! Module constants of multi/199 (found by its file name).
module constants
  implicit none
  integer, parameter :: nvals = 777
  real(8), parameter :: scale = 1.25d0
end module constants
