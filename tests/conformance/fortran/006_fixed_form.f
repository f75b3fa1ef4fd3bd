! Fixed form: C and * comment lines, statement labels in columns 1-5, column-6 continuation,
C code from column 7, blanks inside names ignored is NOT used (only the common subset).
* A labelled DO loop ending on CONTINUE and a continued assignment.
      PROGRAM FIXED
      IMPLICIT NONE
      INTEGER N
      PARAMETER (N = 50)
      DOUBLE PRECISION A(N), S, W
      INTEGER I, NFAIL
      NFAIL = 0
      DO 10 I = 1, N
         A(I) = 1.5D0 * I
     &        + 2.0D0
   10 CONTINUE
      S = 0.0D0
      DO 20 I = 1, N
         S = S + A(I)
   20 CONTINUE
c     lower-case c comment
      W = 1.5D0 * N * (N + 1) / 2.0D0
     1    + 2.0D0 * N
      IF (ABS(S - W) .GT. 1.0D-9) THEN
         NFAIL = NFAIL + 1
         PRINT *, 'FAIL SUM', S, W
      END IF
      CALL EXIT(NFAIL)
      END
