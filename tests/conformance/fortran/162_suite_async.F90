! Suite-shaped: T1 two async queues filled independently and joined with wait, T2 acc_async_test
! after acc_wait on a queue given as integer(acc_handle_kind).
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b, c, d
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
    !$acc data copyin(a, b) copyout(c, d)
      !$acc parallel loop async(1)
      DO x = 1, n_elems
        c(x) = a(x) + b(x)
      END DO
      !$acc parallel loop async(2)
      DO x = 1, n_elems
        d(x) = a(x) - b(x)
      END DO
      !$acc wait(1, 2)
    !$acc end data
    DO x = 1, n_elems
      IF (abs(c(x) + d(x) - 2 * a(x)) .gt. 4 * tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    USE openacc
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    INTEGER(acc_handle_kind) :: q
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    q = 5
    !$acc enter data copyin(a)
    !$acc parallel loop present(a) async(q)
    DO x = 1, n_elems
      a(x) = a(x) + 10
    END DO
    CALL acc_wait(q)
    IF (.not. acc_async_test(q)) errors = errors + 1
    !$acc exit data copyout(a)
    IF (any(a .lt. 10) .or. any(a .ge. 11)) errors = errors + 1
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
