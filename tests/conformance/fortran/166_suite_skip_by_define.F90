! Suite-shaped: `#define T2` before the tests removes test2 (which would report a failure) and its
! call in the main program, as a suite built with -DT2 does; T1 (kernels loop max/min reductions)
! and T3 (update if_present of absent data, then a parallel loop) run.
#define T2
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    REAL(8) :: hi, lo
    INTEGER :: x
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 11
    CALL random_seed(put=seeds)
    CALL random_number(a)
    hi = -1
    lo = 2
    !$acc kernels loop copyin(a) reduction(max:hi) reduction(min:lo)
    DO x = 1, n_elems
      hi = max(hi, a(x))
      lo = min(lo, a(x))
    END DO
    test1 = (hi .ne. maxval(a)) .or. (lo .ne. minval(a))
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    INTEGER :: c
    c = 0
    !$acc serial copy(c)
    c = c + 1
    !$acc end serial
    ! deliberately reports a failure: c is 1, the test claims 2
    test2 = c .ne. 2
  END FUNCTION test2
#endif

#ifndef T3
  LOGICAL FUNCTION test3()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 11
    CALL random_seed(put=seeds)
    CALL random_number(a)
    b = 0
    !$acc update self(a) if_present
    !$acc parallel loop copyin(a) copyout(b)
    DO x = 1, n_elems
      b(x) = sqrt(a(x))
    END DO
    DO x = 1, n_elems
      IF (abs(b(x) * b(x) - a(x)) .gt. tol) errors = errors + 1
    END DO
    test3 = errors .ne. 0
  END FUNCTION test3
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
#ifndef T3
    LOGICAL :: test3
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
#ifndef T3
    DO testrun = 1, n_calls
      failed = failed .or. test3()
    END DO
    IF (failed) THEN
      WRITE(*,*) 'FAIL test3'
      failcode = failcode + 2 ** 2
      failed = .FALSE.
    END IF
#endif
    CALL EXIT(failcode)
  END PROGRAM main
