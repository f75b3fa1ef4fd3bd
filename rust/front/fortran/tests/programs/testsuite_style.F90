! Shaped like the OpenACC validation suite: a LOGICAL FUNCTION per test in
! the same file, INCLUDE of parameters, #ifndef T1 blocks, random_seed,
! random_number on arrays, write(*,*) and call exit.
#ifndef T1
!T1:parallel,data,data-region,V:1.0-2.7
      LOGICAL FUNCTION test1()
        IMPLICIT NONE
        INCLUDE "acc_testsuite.Fh"
        INTEGER :: x, errors
        REAL(8), DIMENSION(LOOPCOUNT) :: a, b, c
        INTEGER, ALLOCATABLE :: seeds(:)
        INTEGER :: nseed
        errors = 0
        CALL random_seed(size=nseed)
        ALLOCATE(seeds(nseed))
        seeds = 1
        CALL random_seed(put=seeds)
        CALL RANDOM_NUMBER(a)
        CALL RANDOM_NUMBER(b)
        c = 0
        !$acc data copyin(a(1:LOOPCOUNT), b(1:LOOPCOUNT)) copy(c(1:LOOPCOUNT))
          !$acc parallel
            !$acc loop
            DO x = 1, LOOPCOUNT
              c(x) = a(x) + b(x)
            END DO
          !$acc end parallel
        !$acc end data
        DO x = 1, LOOPCOUNT
          IF (abs(c(x) - (a(x) + b(x))) .gt. PRECISION) THEN
            errors = errors + 1
          END IF
        END DO
        IF (errors .eq. 0) THEN
          test1 = .FALSE.
        ELSE
          test1 = .TRUE.
        END IF
      END
#endif

      PROGRAM main
        IMPLICIT NONE
        INTEGER :: failcode, testrun
        LOGICAL :: failed
        INCLUDE "acc_testsuite.Fh"
#ifndef T1
        LOGICAL :: test1
#endif
        failed = .FALSE.
        failcode = 0
#ifndef T1
        DO testrun = 1, NUM_TEST_CALLS
          failed = failed .or. test1()
        END DO
        IF (failed) THEN
          failcode = failcode + 2 ** 0
          failed = .FALSE.
        END IF
#endif
        write(*,*) 'failcode =', failcode
        CALL EXIT (failcode)
      END PROGRAM
