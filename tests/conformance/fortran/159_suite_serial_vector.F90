! Suite-shaped: T1 a serial construct computing a prefix sum, T2 parallel with a gang loop over
! rows and a vector loop inside, on random data.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, p
    REAL(8) :: running
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc serial copyin(a) copyout(p)
    p(1) = a(1)
    DO x = 2, n_elems
      p(x) = p(x - 1) + a(x)
    END DO
    !$acc end serial
    running = 0
    DO x = 1, n_elems
      running = running + a(x)
      IF (abs(p(x) - running) .gt. tol * x) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(20, n_elems / 20) :: a, b
    INTEGER :: x, y, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc parallel copyin(a) copyout(b) num_gangs(8) vector_length(32)
      !$acc loop gang
      DO y = 1, n_elems / 20
        !$acc loop vector
        DO x = 1, 20
          b(x, y) = a(x, y) - y
        END DO
      END DO
    !$acc end parallel
    DO y = 1, n_elems / 20
      DO x = 1, 20
        IF (abs(b(x, y) - (a(x, y) - y)) .gt. tol) errors = errors + 1
      END DO
    END DO
    test2 = errors .ne. 0
  END FUNCTION test2
#endif

  PROGRAM main
    IMPLICIT NONE
    INTEGER :: failcode, testrun
    LOGICAL :: failed
    INCLUDE "params.Fh"
#ifndef T1
    LOGICAL :: test1
#endif
#ifndef T2
    LOGICAL :: test2
#endif
    failed = .FALSE.
    failcode = 0
#ifndef T1
    DO testrun = 1, n_calls
      failed = failed .or. test1()
    END DO
    IF (failed) THEN
      WRITE(*,*) 'FAIL test1'
      failcode = failcode + 2 ** 0
      failed = .FALSE.
    END IF
#endif
#ifndef T2
    DO testrun = 1, n_calls
      failed = failed .or. test2()
    END DO
    IF (failed) THEN
      WRITE(*,*) 'FAIL test2'
      failcode = failcode + 2 ** 1
      failed = .FALSE.
    END IF
#endif
    CALL EXIT(failcode)
  END PROGRAM main
