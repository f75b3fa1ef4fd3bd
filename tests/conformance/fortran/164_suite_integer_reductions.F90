! Suite-shaped: T1 iand/ior/ieor reductions on random integers made from random_number, T2 .and./
! .or. reductions on random logicals, T3 a product reduction on values near 1.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: r
    INTEGER, DIMENSION(n_elems) :: v
    INTEGER :: x, ra, ro, rx, ha, ho, hx
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(r)
    v = int(r * 1000000) + 1
    ra = not(0)
    ro = 0
    rx = 0
    !$acc parallel loop copyin(v) reduction(iand:ra) reduction(ior:ro) reduction(ieor:rx)
    DO x = 1, n_elems
      ra = iand(ra, v(x))
      ro = ior(ro, v(x))
      rx = ieor(rx, v(x))
    END DO
    ha = not(0)
    ho = 0
    hx = 0
    DO x = 1, n_elems
      ha = iand(ha, v(x))
      ho = ior(ho, v(x))
      hx = ieor(hx, v(x))
    END DO
    test1 = (ra .ne. ha) .or. (ro .ne. ho) .or. (rx .ne. hx)
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: r
    LOGICAL, DIMENSION(n_elems) :: f
    LOGICAL :: all_f, any_f
    INTEGER :: x
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(r)
    f = r .gt. 0.001
    all_f = .TRUE.
    any_f = .FALSE.
    !$acc parallel loop copyin(f) reduction(.and.:all_f) reduction(.or.:any_f)
    DO x = 1, n_elems
      all_f = all_f .and. f(x)
      any_f = any_f .or. .not. f(x)
    END DO
    test2 = (all_f .neqv. all(f)) .or. (any_f .neqv. any(.not. f))
  END FUNCTION test2
#endif

#ifndef T3
  LOGICAL FUNCTION test3()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: r
    REAL(8) :: p, hp
    INTEGER :: x
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 7
    CALL random_seed(put=seeds)
    CALL random_number(r)
    r = 1 + (r - 0.5) / 1000
    p = 1
    !$acc parallel loop copyin(r) reduction(*:p)
    DO x = 1, n_elems
      p = p * r(x)
    END DO
    hp = 1
    DO x = 1, n_elems
      hp = hp * r(x)
    END DO
    test3 = abs(p - hp) .gt. 1.0d-12
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
