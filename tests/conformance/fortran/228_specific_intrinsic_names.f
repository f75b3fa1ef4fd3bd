! The specific (type-named) intrinsic names of FORTRAN 77 that legacy codes call: DSQRT DABS
! IABS DEXP ALOG DLOG DLOG10 DSIN DCOS DTAN DATAN2 DSINH DMOD AMOD ISIGN DSIGN IDIM DDIM DPROD
! MAX0 AMAX1 DMAX1 MIN0 AMIN1 DMIN1 FLOAT IFIX IDINT SNGL IDNINT DNINT DINT, on the host and in a
! parallel loop, each compared with its generic form.
      PROGRAM SPECIFICS
      IMPLICIT NONE
      INTEGER N, I, NFAIL
      PARAMETER (N = 50)
      DOUBLE PRECISION X(N), R(N), G(N)
      REAL S
      NFAIL = 0
      DO 10 I = 1, N
         X(I) = 0.37D0 * I - 5.0D0
   10 CONTINUE
!$ACC PARALLEL LOOP COPYIN(X) COPYOUT(R)
      DO 20 I = 1, N
         R(I) = DSQRT(DABS(X(I))) + DEXP(X(I) / 10.0D0)
     &        + DLOG(1.0D0 + DABS(X(I))) + DSIN(X(I)) * DCOS(X(I))
     &        + DATAN2(X(I), 2.0D0) + DMOD(X(I), 1.5D0)
     &        + DSIGN(1.0D0, X(I)) + DMAX1(X(I), 0.0D0, -1.0D0)
     &        + DMIN1(X(I), 1.0D0) + DNINT(X(I)) + DINT(X(I))
     &        + DTAN(X(I) / 100.0D0) + DSINH(X(I) / 10.0D0)
     &        + DLOG10(2.0D0 + DABS(X(I))) + DDIM(X(I), 0.5D0)
   20 CONTINUE
      DO 30 I = 1, N
         G(I) = SQRT(ABS(X(I))) + EXP(X(I) / 10.0D0)
     &        + LOG(1.0D0 + ABS(X(I))) + SIN(X(I)) * COS(X(I))
     &        + ATAN2(X(I), 2.0D0) + MOD(X(I), 1.5D0)
     &        + SIGN(1.0D0, X(I)) + MAX(X(I), 0.0D0, -1.0D0)
     &        + MIN(X(I), 1.0D0) + ANINT(X(I)) + AINT(X(I))
     &        + TAN(X(I) / 100.0D0) + SINH(X(I) / 10.0D0)
     &        + LOG10(2.0D0 + ABS(X(I))) + DIM(X(I), 0.5D0)
         IF (ABS(R(I) - G(I)) .GT. 1.0D-12) NFAIL = NFAIL + 1
   30 CONTINUE
      IF (IABS(-3) .NE. 3 .OR. ISIGN(4, -1) .NE. -4) NFAIL = NFAIL + 1
      IF (IDIM(7, 3) .NE. 4 .OR. MAX0(1, 9, 4) .NE. 9) NFAIL = NFAIL + 1
      IF (MIN0(1, 9, -4) .NE. -4) NFAIL = NFAIL + 1
      IF (AMAX1(1.0, 2.5) .NE. 2.5) NFAIL = NFAIL + 1
      IF (AMIN1(1.0, 2.5) .NE. 1.0) NFAIL = NFAIL + 1
      IF (FLOAT(3) .NE. 3.0 .OR. IFIX(3.9) .NE. 3) NFAIL = NFAIL + 1
      IF (IDINT(-2.5D0) .NE. -2) NFAIL = NFAIL + 1
      IF (IDNINT(2.5D0) .NE. 3) NFAIL = NFAIL + 1
      S = SNGL(1.5D0)
      IF (S .NE. 1.5 .OR. AMOD(7.5, 2.0) .NE. 1.5) NFAIL = NFAIL + 1
      IF (ALOG(1.0) .NE. 0.0) NFAIL = NFAIL + 1
      IF (DPROD(2.0, 3.0) .NE. 6.0D0) NFAIL = NFAIL + 1
      IF (NFAIL .NE. 0) PRINT *, 'FAIL', NFAIL
      CALL EXIT(NFAIL)
      END
