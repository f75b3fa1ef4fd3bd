! Fixed form conditional compilation: `!$`, `c$` and `*$` in columns 1-2 followed by a statement
! from column 7 are compiled with OpenACC; a `*$` continuation uses column 6.
! gfortran compiles `!$` lines only with -fopenmp (OpenMP's rule), hence:
! gfortran-flags: -fopenmp
      PROGRAM FIXSENT
      IMPLICIT NONE
      INTEGER K, NFAIL
      NFAIL = 0
      K = 0
!$    K = K + 1
c$    K = K + 10
*$    K = K +
*$   &    100
      IF (K .NE. 111) THEN
         NFAIL = NFAIL + 1
         PRINT *, 'FAIL K', K
      END IF
      CALL EXIT(NFAIL)
      END
