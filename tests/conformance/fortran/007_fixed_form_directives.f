! Fixed form directives: c$acc, *$acc and !$acc sentinels in column 1, continued with a
! non-blank, non-zero character in column 6 after the sentinel.
      PROGRAM FIXDIR
      IMPLICIT NONE
      INTEGER N, I, NFAIL
      PARAMETER (N = 300)
      REAL*8 A(N), B(N), C(N)
      NFAIL = 0
      DO I = 1, N
         A(I) = DBLE(I) / 7.0D0
         B(I) = 0.0D0
         C(I) = 0.0D0
      END DO
c$acc parallel loop copyin(a)
c$acc& copyout(b)
      DO I = 1, N
         B(I) = 2.0D0 * A(I)
      END DO
*$acc kernels copyin(a) copyout(c)
      DO I = 1, N
         C(I) = A(I) + 1.0D0
      END DO
*$acc end kernels
!$acc serial copy(b)
      B(1) = B(1) + 100.0D0
!$acc end serial
      DO I = 1, N
         IF (ABS(C(I) - A(I) - 1.0D0) .GT. 1.0D-12) NFAIL = NFAIL + 1
         IF (I .GT. 1 .AND. ABS(B(I) - 2.0D0*A(I)) .GT. 1.0D-12)
     &      NFAIL = NFAIL + 1
      END DO
      IF (ABS(B(1) - 2.0D0*A(1) - 100.0D0) .GT. 1.0D-12)
     &   NFAIL = NFAIL + 1
      IF (NFAIL .NE. 0) PRINT *, 'FAIL', NFAIL
      CALL EXIT(NFAIL)
      END
