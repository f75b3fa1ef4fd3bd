! Suite-shaped: T1 host_data use_device passing the device array to a routine with deviceptr,
! T2 declare create of a local array in a test function.
#ifndef T1
  SUBROUTINE twice_dev(d, n)
    IMPLICIT NONE
    INTEGER, INTENT(IN) :: n
    REAL(8) :: d(n)
    INTEGER :: k
    !$acc parallel loop deviceptr(d)
    DO k = 1, n
      d(k) = 2 * d(k)
    END DO
  END SUBROUTINE twice_dev

  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, orig
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    orig = a
    !$acc data copy(a)
      !$acc host_data use_device(a)
        CALL twice_dev(a, n_elems)
      !$acc end host_data
    !$acc end data
    DO x = 1, n_elems
      IF (abs(a(x) - 2 * orig(x)) .gt. tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b, work
    !$acc declare create(work)
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc parallel loop copyin(a) present(work)
    DO x = 1, n_elems
      work(x) = a(x) + 0.5
    END DO
    !$acc parallel loop present(work) copyout(b)
    DO x = 1, n_elems
      b(x) = work(x) * 2
    END DO
    DO x = 1, n_elems
      IF (abs(b(x) - 2 * a(x) - 1) .gt. tol) errors = errors + 1
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
