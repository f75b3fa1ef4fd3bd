! Legacy features fixed-form codes still carry (COMMON is in 227): a statement function, DOUBLE COMPLEX / COMPLEX*16 / REAL*8 / INTEGER*4, the
! computed GO TO, and SAVE/DATA in a subroutine (not the arithmetic IF: deleted in F2018).
      PROGRAM LEGACY2
      IMPLICIT NONE
      INTEGER*4 N, K, NFAIL, HITS
      REAL*8 X(10), TOTAL, SQ, Y
      DOUBLE COMPLEX Z
      COMPLEX*16 W
      SQ(Y) = Y * Y + 1.0D0
      NFAIL = 0
      N = 10
      DO 10 K = 1, N
         X(K) = DBLE(K)
   10 CONTINUE
      CALL SUMUP(X, TOTAL, N)
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

      SUBROUTINE SUMUP(X, TOTAL, N)
      IMPLICIT NONE
      INTEGER N, K, CALLS
      REAL*8 X(N), TOTAL
      SAVE CALLS
      DATA CALLS /0/
      CALLS = CALLS + 1
      TOTAL = 0.0D0
!$ACC PARALLEL LOOP REDUCTION(+:TOTAL) COPYIN(X)
      DO 10 K = 1, N
         TOTAL = TOTAL + X(K)
   10 CONTINUE
      END
