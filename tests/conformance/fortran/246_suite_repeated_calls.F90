! Suite-shaped with each test called three times (the main program's loop runs test1 three
! times): an allocatable local is allocated with stat= on every call (it was deallocated on the
! previous return), an initialised local counter keeps its value (implied save), data regions
! are entered and left each time.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), ALLOCATABLE :: a(:), b(:)
    INTEGER :: x, errors, ierr
    INTEGER :: calls = 0
    errors = 0
    calls = calls + 1
    ! allocatable locals are deallocated on return, so every call can allocate them again
    ALLOCATE(a(n_elems), b(n_elems), STAT=ierr)
    IF (ierr .ne. 0) errors = errors + 1
    a = [(DBLE(x * calls), x = 1, n_elems)]
    !$acc data copyin(a) copyout(b)
      !$acc parallel loop
      DO x = 1, n_elems
        b(x) = a(x) + calls
      END DO
    !$acc end data
    DO x = 1, n_elems
      IF (b(x) .ne. DBLE(x * calls + calls)) errors = errors + 1
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
    DO testrun = 1, 3 * n_calls
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
