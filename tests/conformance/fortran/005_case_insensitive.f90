! Fortran is case-insensitive: keywords, names, intrinsics and directives in any case name the same thing.
PROGRAM Case_Insensitive
  IMPLICIT NONE
  INTEGER, PARAMETER :: N = 256
  Real(8) :: Arr(n), bRR(N)
  integer :: I, nFail
  NFAIL = 0
  DO i = 1, n
    ARR(I) = Sin(DBLE(i)) * 3.0D0
  END DO
!$ACC PARALLEL LOOP COPYIN(arr) COPYOUT(Brr)
  Do I = 1, N
    brr(i) = ARR(i) + 1.0d0
  EnD dO
!$Acc End Parallel Loop
  do i = 1, n
    IF (ABS(brr(i) - (arr(I) + 1.0D0)) > 1.0d-12) THEN
      nfail = nFail + 1
      if (nfail <= 3) Print *, 'FAIL', i, Brr(i)
    ENDIF
  ENDDO
  CALL EXIT(nfail)
END PROGRAM case_insensitive
