! Fixed form where blanks are insignificant, in the executable statements legacy codes write
! without them (DO10I=1,N, DOI=1,N, GOTO20, IF(K.GT.3)GOTO30, ENDDO, ENDIF), told apart
! from assignments such as DO10I=1.5D0 (a real variable named DO10I). Declarations keep blanks.
      PROGRAM NOBLANKS
      IMPLICIT NONE
      INTEGER I,K,N,S,NFAIL
      DOUBLE PRECISION X,DO10I
      PARAMETER(N=6)
      NFAIL=0
      S=0
      DO10I=1,N
         S=S+I
   10 CONTINUE
      IF(S.NE.21)NFAIL=NFAIL+1
      DO10I=1.5D0
      IF(DO10I.NE.1.5D0)NFAIL=NFAIL+1
      K=0
   20 K=K+1
      IF(K.GT.3)GOTO30
      GOTO20
   30 CONTINUE
      IF(K.NE.4)NFAIL=NFAIL+1
      X=0.0D0
      DOI=1,N
         X=X+DBLE(I)
      ENDDO
      IF(X.NE.21.0D0) THEN
         NFAIL=NFAIL+1
      ENDIF
      IF(NFAIL.NE.0)PRINT*,'FAIL',NFAIL
      CALL EXIT(NFAIL)
      END
