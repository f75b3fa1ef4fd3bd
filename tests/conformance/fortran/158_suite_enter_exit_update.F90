! Suite-shaped: T1 enter data / exit data with a parallel loop on present data, T2 update host and
! update device inside a data region, T3 acc_is_present after enter and acc_copyin/acc_delete.
#ifndef T1
  LOGICAL FUNCTION test1()
    USE openacc
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    !$acc enter data copyin(a(1:n_elems)) create(b(1:n_elems))
    !$acc parallel loop present(a, b)
    DO x = 1, n_elems
      b(x) = a(x) + 1
    END DO
    !$acc exit data copyout(b(1:n_elems)) delete(a(1:n_elems))
    DO x = 1, n_elems
      IF (abs(b(x) - a(x) - 1) .gt. tol) errors = errors + 1
    END DO
    test1 = errors .ne. 0
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, b
    INTEGER :: x, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(a)
    b = 0
    !$acc data copyin(a(1:n_elems)) copy(b(1:n_elems))
      !$acc parallel loop
      DO x = 1, n_elems
        b(x) = a(x) * 4
      END DO
      !$acc update host(b(1:n_elems))
      DO x = 1, n_elems
        IF (abs(b(x) - 4 * a(x)) .gt. tol) errors = errors + 1
      END DO
      a = 1
      !$acc update device(a(1:n_elems))
      !$acc parallel loop
      DO x = 1, n_elems
        b(x) = b(x) + a(x)
      END DO
    !$acc end data
    DO x = 1, n_elems
      IF (b(x) .lt. 1) errors = errors + 1
    END DO
    test2 = errors .ne. 0
  END FUNCTION test2
#endif

#ifndef T3
  LOGICAL FUNCTION test3()
    USE openacc
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    INTEGER :: errors
    errors = 0
    a = 1
    !$acc enter data create(a(1:n_elems))
    IF (.not. acc_is_present(a)) errors = errors + 1
    !$acc exit data delete(a(1:n_elems))
    CALL acc_copyin(a)
    IF (.not. acc_is_present(a(1:n_elems / 2))) errors = errors + 1
    CALL acc_delete(a)
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
