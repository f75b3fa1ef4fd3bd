! Fixed-form columns: text after column 72 is ignored (old sequence numbers in 73-80 and a
! `+1` there that must not count), a 0 in column 6 starts a new line (not a continuation), an
! inline ! comment, a blank line, and labelled CONTINUEs ending nested DOs. The truncation is the
! test, so gfortran_check's truncation warning is off here:
! gfortran-flags: -Wno-line-truncation
      PROGRAM COLS
      IMPLICIT NONE
      INTEGER K, I, J, S, NFAIL
      NFAIL = 0
      K = 1                                                             +1
      S = 0                                                             00000100
     0S = S + 5

      DO 10 I = 1, 3
      DO 20 J = 1, 2 ! an inline comment
         S = S + I * J                                                  SEQ00200
   20 CONTINUE
   10 CONTINUE
      IF (K .NE. 1) THEN
         NFAIL = NFAIL + 1
         PRINT *, 'FAIL text after column 72 was compiled', K
      END IF
      IF (S .NE. 5 + 18) THEN
         NFAIL = NFAIL + 1
         PRINT *, 'FAIL S', S
      END IF
      CALL EXIT(NFAIL)
      END
