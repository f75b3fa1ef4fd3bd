! Suite-shaped: T1 atomic update of a shared counter split by value, T2 atomic capture handing out
! unique indices to compact the elements above 0.5, T3 atomic update with max/min intrinsics.
#ifndef T1
  LOGICAL FUNCTION test1()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    INTEGER :: x, lows, highs, hl, hh
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    lows = 0
    highs = 0
    !$acc parallel loop copyin(a) copy(lows, highs)
    DO x = 1, n_elems
      IF (a(x) .lt. 0.5) THEN
        !$acc atomic
        lows = lows + 1
      ELSE
        !$acc atomic update
        highs = highs + 1
        !$acc end atomic
      END IF
    END DO
    hl = count(a .lt. 0.5)
    hh = n_elems - hl
    test1 = (lows .ne. hl) .or. (highs .ne. hh)
  END FUNCTION test1
#endif

#ifndef T2
  LOGICAL FUNCTION test2()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a, packed
    INTEGER :: x, nxt, slot, errors
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    errors = 0
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    packed = -1
    nxt = 0
    !$acc parallel loop copyin(a) copy(packed, nxt) private(slot)
    DO x = 1, n_elems
      IF (a(x) .gt. 0.5) THEN
        !$acc atomic capture
        nxt = nxt + 1
        slot = nxt
        !$acc end atomic
        packed(slot) = a(x)
      END IF
    END DO
    IF (nxt .ne. count(a .gt. 0.5)) errors = errors + 1
    IF (abs(sum(packed(1:nxt)) - sum(a, mask=a .gt. 0.5)) .gt. tol * n_elems) errors = errors + 1
    IF (any(packed(1:nxt) .le. 0.5)) errors = errors + 1
    test2 = errors .ne. 0
  END FUNCTION test2
#endif

#ifndef T3
  LOGICAL FUNCTION test3()
    IMPLICIT NONE
    INCLUDE "params.Fh"
    REAL(8), DIMENSION(n_elems) :: a
    REAL(8) :: hi, lo
    INTEGER :: x
    INTEGER :: nseed
    INTEGER, ALLOCATABLE :: seeds(:)
    CALL random_seed(size=nseed)
    ALLOCATE(seeds(nseed))
    seeds = 1
    CALL random_seed(put=seeds)
    CALL random_number(a)
    hi = 0
    lo = 1
    !$acc parallel loop copyin(a) copy(hi, lo)
    DO x = 1, n_elems
      !$acc atomic
      hi = max(hi, a(x))
      !$acc atomic
      lo = min(a(x), lo)
    END DO
    test3 = (hi .ne. maxval(a)) .or. (lo .ne. minval(a))
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
