! Legacy fixed-form code with implicit typing (no IMPLICIT NONE), DIMENSION and COMMON-free
! explicit arrays, a labelled DO with an OpenACC parallel loop, arithmetic in REAL (default kind).
      PROGRAM LEGACY
      DIMENSION X(500), Y(500)
      PARAMETER (N = 500)
      NFAIL = 0
      DO 10 I = 1, N
         X(I) = FLOAT(I) * 0.5
   10 CONTINUE
!$ACC PARALLEL LOOP COPYIN(X) COPYOUT(Y)
      DO 20 I = 1, N
         Y(I) = 2.0 * X(I) + 1.0
   20 CONTINUE
      DO 30 K = 1, N
         IF (ABS(Y(K) - FLOAT(K) - 1.0) .GT. 1.0E-5) NFAIL = NFAIL + 1
   30 CONTINUE
      IF (NFAIL .NE. 0) PRINT *, 'FAIL', NFAIL
      CALL EXIT(NFAIL)
      END
