! Suite-shaped: T1 a parallel loop with copyin/copyout on random arrays, T2 a sum reduction;
! LOGICAL FUNCTION testN() blocks under #ifndef TN, INCLUDE "params.Fh", random_seed(put=seeds),
! random_number on arrays, write(*,*) and call exit(failcode).
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b, c
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    CALL random_number(b)
    c = 0
    !$acc parallel loop copyin(a(1:n_elems), b(1:n_elems)) copyout(c(1:n_elems))
    DO x = 1, n_elems
      c(x) = a(x) + b(x)
    END DO
    DO x = 1, n_elems
      IF (abs(c(x) - (a(x) + b(x))) .gt. tol) THEN
        errors = errors + 1
      END IF
    END DO
    IF (errors .eq. 0) THEN
      test1 = .FALSE.
    ELSE
      test1 = .TRUE.
    END IF
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    REAL(8) :: total, host_total
    INTEGER :: x
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    total = 0
    !$acc parallel loop reduction(+:total) copyin(a)
    DO x = 1, n_elems
      total = total + a(x)
    END DO
    host_total = 0
    DO x = 1, n_elems
      host_total = host_total + a(x)
    END DO
    test2 = abs(total - host_total) .gt. tol * n_elems
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
