! Suite-shaped: T1 private temporaries in a gang loop, T2 firstprivate of a random scalar and a
! small array.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b, c
    REAL(8) :: t1, t2
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    CALL random_number(b)
    !$acc parallel loop copyin(a, b) copyout(c) private(t1, t2)
    DO x = 1, n_elems
      t1 = a(x) * 2
      t2 = b(x) * 3
      c(x) = t1 + t2
    END DO
    DO x = 1, n_elems
      IF (abs(c(x) - 2 * a(x) - 3 * b(x)) .gt. 10 * tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, c
    REAL(8) :: s, w(3)
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    CALL random_number(s)
    CALL random_number(w)
    !$acc parallel loop copyin(a) copyout(c) firstprivate(s, w)
    DO x = 1, n_elems
      c(x) = a(x) * s + w(mod(x, 3) + 1)
    END DO
    DO x = 1, n_elems
      IF (abs(c(x) - a(x) * s - w(mod(x, 3) + 1)) .gt. tol) errors = errors + 1
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
