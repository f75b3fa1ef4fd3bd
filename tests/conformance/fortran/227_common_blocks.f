! COMMON blocks as legacy fixed-form codes share data: two named blocks seen by the main program
! and a subroutine (which reduces over the shared array in a parallel loop), with the rest of
! 226's legacy features. COMMON is outside issue 11's language list; kept to show where it stands.
      PROGRAM LEGACY3
      IMPLICIT NONE
      INTEGER*4 N, K, NFAIL, HITS
      REAL*8 X(10), TOTAL, SQ, Y
      DOUBLE COMPLEX Z
      COMPLEX*16 W
      COMMON /SHARED/ X, TOTAL
      COMMON /COUNTS/ N
      SQ(Y) = Y * Y + 1.0D0
      NFAIL = 0
      N = 10
      DO 10 K = 1, N
         X(K) = DBLE(K)
   10 CONTINUE
      CALL SUMUP
      IF (TOTAL .NE. 55.0D0) NFAIL = NFAIL + 1
      IF (SQ(3.0D0) .NE. 10.0D0) NFAIL = NFAIL + 1
      Z = (1.0D0, 2.0D0)
      W = Z * CONJG(Z)
      IF (DBLE(W) .NE. 5.0D0) NFAIL = NFAIL + 1
      HITS = 0
      K = 2
      GO TO (50, 60, 70), K
   50 NFAIL = NFAIL + 1
   60 K = 20
      GO TO 80
   70 NFAIL = NFAIL + 1
   80 IF (K .NE. 20) NFAIL = NFAIL + 1
      IF (NFAIL .NE. 0) PRINT *, 'FAIL', NFAIL, TOTAL, HITS
      CALL EXIT(NFAIL)
      END

      SUBROUTINE SUMUP
      IMPLICIT NONE
      REAL*8 X(10), TOTAL
      INTEGER N, K, CALLS
      COMMON /SHARED/ X, TOTAL
      COMMON /COUNTS/ N
      SAVE CALLS
      DATA CALLS /0/
      CALLS = CALLS + 1
      TOTAL = 0.0D0
!$ACC PARALLEL LOOP REDUCTION(+:TOTAL) COPYIN(X)
      DO 10 K = 1, N
         TOTAL = TOTAL + X(K)
   10 CONTINUE
      END
