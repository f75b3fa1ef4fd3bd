! Suite-shaped: T1 kernels inside a data region with create for a temporary, T2 a kernels loop
! on a 2-D random array, T3 a data region with copy whose results are checked after end data.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b, tmp
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    b = 0
    !$acc data copyin(a(1:n_elems)) create(tmp(1:n_elems)) copyout(b(1:n_elems))
      !$acc kernels
        !$acc loop
        DO x = 1, n_elems
          tmp(x) = a(x) * 2
        END DO
        !$acc loop
        DO x = 1, n_elems
          b(x) = tmp(x) + a(x)
        END DO
      !$acc end kernels
    !$acc end data
    DO x = 1, n_elems
      IF (abs(b(x) - 3 * a(x)) .gt. tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(10, n_elems / 10) :: a, b
    INTEGER :: x, y, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc kernels loop copyin(a) copyout(b)
    DO y = 1, n_elems / 10
      DO x = 1, 10
        b(x, y) = a(x, y) * y
      END DO
    END DO
    DO y = 1, n_elems / 10
      DO x = 1, 10
        IF (abs(b(x, y) - a(x, y) * y) .gt. tol * y) errors = errors + 1
      END DO
    END DO
    test2 = errors .ne. 0
  END FUNCTION test2
#endif

#ifndef T3
  LOGICAL FUNCTION test3()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, orig
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    orig = a
    !$acc data copy(a(1:n_elems))
      !$acc parallel loop
      DO x = 1, n_elems
        a(x) = a(x) * a(x)
      END DO
    !$acc end data
    DO x = 1, n_elems
      IF (abs(a(x) - orig(x) ** 2) .gt. tol) errors = errors + 1
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
