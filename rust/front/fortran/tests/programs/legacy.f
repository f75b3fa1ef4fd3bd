C     Legacy fixed form: implicit typing, common blocks, data statements,
C     labelled loops, computed goto, arithmetic in DOUBLE PRECISION.
      PROGRAM LEGACY
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      PARAMETER (N = 8)
      DIMENSION X(N), Y(N)
      COMMON /WORK/ X, Y
      INTEGER IFLAG(3)
      DATA IFLAG /3*0/, SCALE /2.5D0/
      DO 20 I = 1, N
         X(I) = DBLE(I)
         Y(I) = 0.0D0
   20 CONTINUE
C$ACC PARALLEL LOOP COPYIN(X) COPYOUT(Y)
      DO 30 I = 1, N
         Y(I) = SCALE * X(I)
   30 CONTINUE
      K = 2
      GO TO (40, 50, 60) K
   40 IFLAG(1) = 1
      GOTO 70
   50 IFLAG(2) = 1
      GOTO 70
   60 IFLAG(3) = 1
   70 CONTINUE
      TOTAL = 0.0D0
      DO 80 I = 1, N
   80 TOTAL = TOTAL + Y(I)
      IF (TOTAL .NE. SCALE * N * (N + 1) / 2 .OR. IFLAG(2) .NE. 1) THEN
         WRITE (*, 900) TOTAL
         STOP 1
      ENDIF
  900 FORMAT (' FAIL TOTAL=', F10.3)
      END
