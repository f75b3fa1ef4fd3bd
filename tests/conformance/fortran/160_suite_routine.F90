! Suite-shaped: T1 an external function with !$acc routine seq, declared REAL(8), EXTERNAL in the
! test with !$acc routine(name) seq, called from a parallel loop on random data.
#ifndef T1
  REAL(8) FUNCTION weighted(v, w)
    IMPLICIT NONE
    !$acc routine seq
    REAL(8), INTENT(IN) :: v, w
    weighted = v * w + (1 - w)
  END FUNCTION weighted

  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, w, c
    REAL(8), EXTERNAL :: weighted
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    !$acc routine(weighted) seq
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    CALL random_number(w)
    !$acc parallel loop copyin(a, w) copyout(c)
    DO x = 1, n_elems
      c(x) = weighted(a(x), w(x))
    END DO
    DO x = 1, n_elems
      IF (abs(c(x) - (a(x) * w(x) + 1 - w(x))) .gt. tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

  PROGRAM main
    IMPLICIT NONE
    INTEGER :: failcode, testrun
    LOGICAL :: failed
    INCLUDE "params.Fh"
#ifndef T1
    LOGICAL :: test1
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
    CALL EXIT(failcode)
  END PROGRAM main
