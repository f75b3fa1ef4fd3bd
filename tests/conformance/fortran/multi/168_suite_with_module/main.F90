! Suite-shaped over two files: the tests use a helper module from helpers.F90 (module procedures
! with routine seq, a module array with declare create), INCLUDE "suite.Fh", #ifndef T1/T2 and
! call exit(failcode); run as `accjit run main.F90 helpers.F90`.
#ifndef T1
  LOGICAL FUNCTION test1()
    USE helpers, ONLY: smooth_step
    IMPLICIT NONE
    INCLUDE "suite.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b
    INTEGER :: x, errors, nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 21
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc parallel loop copyin(a) copyout(b)
    DO x = 1, n_elems
      b(x) = smooth_step(a(x))
    END DO
    DO x = 1, n_elems
      IF (abs(b(x) - a(x) * a(x) * (3 - 2 * a(x))) .gt. tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif
#ifndef T2
  LOGICAL FUNCTION test2()
    USE helpers, ONLY: weights, nweights, load_weights, weighted_sum
    IMPLICIT NONE
    INCLUDE "suite.Fh"
    REAL(8) :: total
    INTEGER :: k
    CALL load_weights()
    total = weighted_sum()
    test2 = abs(total - sum([(weights(k) * k, k = 1, nweights)])) .gt. tol * 1000
  END FUNCTION test2
#endif

PROGRAM main
  IMPLICIT NONE
  INTEGER :: failcode
  LOGICAL :: failed
#ifndef T1
  LOGICAL :: test1
#endif
#ifndef T2
  LOGICAL :: test2
#endif
  failcode = 0
#ifndef T1
  failed = test1()
  IF (failed) THEN
    WRITE(*,*) 'FAIL test1'
    failcode = failcode + 2 ** 0
  END IF
#endif
#ifndef T2
  failed = test2()
  IF (failed) THEN
    WRITE(*,*) 'FAIL test2'
    failcode = failcode + 2 ** 1
  END IF
#endif
  CALL EXIT(failcode)
END PROGRAM main
