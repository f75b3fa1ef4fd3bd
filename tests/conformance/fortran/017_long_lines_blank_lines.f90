! Lines up to the free-form limit of 132 characters, blank lines and blank-only lines between
! statements, a statement split before an operator, and deep parentheses.
program long_lines_blank_lines
  implicit none
  integer :: nfail
  real(8) :: alpha, beta, gamma_value, result_of_a_long_named_expression

  nfail = 0

  alpha = 1.25d0; beta = -0.5d0; gamma_value = 3.0d0
  result_of_a_long_named_expression = ((alpha + beta) * (gamma_value - beta)) / ((alpha * alpha) + (beta * beta) + 1.0d0)


  if (abs(result_of_a_long_named_expression - (0.75d0 * 3.5d0) / (1.5625d0 + 0.25d0 + 1.0d0)) > 1.0d-14) then
    nfail = nfail + 1
    print *, 'FAIL', result_of_a_long_named_expression
  end if
  alpha = (((((alpha + 1.0d0) * 2.0d0) - 1.0d0) / 2.0d0) &

          + 0.5d0)
  if (alpha /= 2.25d0) then
    nfail = nfail + 1
    print *, 'FAIL alpha', alpha
  end if
  call exit(nfail)
end program long_lines_blank_lines
