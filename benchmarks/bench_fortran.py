"""A Fortran Jacobi sweep called from Python (acc.fortran) vs the same kernel in C (acc.c).

Both take the same Fortran-ordered float64 NumPy arrays (n × m, column-major)
and run the same loops with the same clauses on the same device: the Fortran
subroutine takes assumed-shape dummies `a(:,:)`, `anew(:,:)` (base, extents
and column stride passed by acc.fortran), the C function indexes the
column-major buffer itself (given 1-D views of the same memory). One sweep computes the 4-point average of the
interior and the largest change (a max reduction). The results are checked
against NumPy, then each version is timed (median of interleaved calls).

    python benchmarks/bench_fortran.py [--device multicore|host|nvidia] [--n N] [--reps N] [--quick]

Target (issue 11): the Fortran version within 10% of the C one on multicore
(ratio = C time / Fortran time ≥ 0.90).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

import accjit as acc

FORTRAN = """
subroutine jacobi(a, anew, err)
  real(8), intent(in)    :: a(:,:)
  real(8), intent(inout) :: anew(:,:)
  real(8), intent(out)   :: err
  integer :: i, j, n, m
  n = size(a, 1)
  m = size(a, 2)
  err = 0.0d0
  !$acc parallel loop collapse(2) reduction(max:err) copyin(a) copy(anew)
  do j = 2, m - 1
    do i = 2, n - 1
      anew(i, j) = 0.25d0 * (a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
      err = max(err, abs(anew(i, j) - a(i, j)))
    end do
  end do
end subroutine
"""

C = r"""
#include <math.h>
double jacobi(long n, long m, const double *a, double *anew) {
    double err = 0.0;
    #pragma acc parallel loop collapse(2) reduction(max:err) copyin(a[0:n*m]) copy(anew[0:n*m])
    for (long j = 1; j < m - 1; j++)
        for (long i = 1; i < n - 1; i++) {
            anew[i + j * n] = 0.25 * (a[i - 1 + j * n] + a[i + 1 + j * n] + a[i + (j - 1) * n] + a[i + (j + 1) * n]);
            err = fmax(err, fabs(anew[i + j * n] - a[i + j * n]));
        }
    return err;
}
"""


def numpy_sweep(a):
    want = a.copy(order="F")
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return want, float(np.abs(want - a).max())


def run(device: str, n: int, reps: int) -> dict:
    f = acc.fortran(FORTRAN, device_type=device)
    c = acc.c(C, device_type=device)
    rng = np.random.default_rng(11)
    a = np.asfortranarray(rng.random((n, n + 7)))
    want, want_err = numpy_sweep(a)

    anew_f = a.copy(order="F")
    err = np.zeros(())
    f.jacobi(a, anew_f, err)
    anew_c = a.copy(order="F")
    # acc.c takes C-contiguous buffers: the same memory as 1-D views (no copy)
    a1, anew_c1 = a.reshape(-1, order="F"), anew_c.reshape(-1, order="F")
    assert np.shares_memory(a1, a) and np.shares_memory(anew_c1, anew_c)
    err_c = c.jacobi(a.shape[0], a.shape[1], a1, anew_c1)
    np.testing.assert_allclose(anew_f, want, rtol=1e-14, atol=0)
    np.testing.assert_allclose(anew_c, want, rtol=1e-14, atol=0)
    assert abs(float(err) - want_err) <= 1e-14 and abs(err_c - want_err) <= 1e-14, (float(err), err_c, want_err)

    tf, tc = [], []
    for _ in range(reps):  # interleaved, so both see the same load
        t = time.perf_counter()
        f.jacobi(a, anew_f, err)
        tf.append(time.perf_counter() - t)
        t = time.perf_counter()
        c.jacobi(a.shape[0], a.shape[1], a1, anew_c1)
        tc.append(time.perf_counter() - t)
    return {"device": device, "shape": a.shape, "fortran_ms": statistics.median(tf) * 1e3, "c_ms": statistics.median(tc) * 1e3}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="multicore")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--quick", action="store_true", help="small arrays, few repetitions (a smoke test)")
    args = ap.parse_args(argv)
    n, reps = (64, 3) if args.quick else (args.n, args.reps)
    acc.set_device_type(args.device)
    r = run(args.device, n, reps)
    ratio = r["c_ms"] / r["fortran_ms"]
    print(f"Fortran Jacobi vs C (acc.fortran / acc.c), {r['device']}, float64 {r['shape'][0]}x{r['shape'][1]}, median of {reps}")
    print(f"{'kernel':<10} {'Fortran ms':>11} {'C ms':>9} {'C/Fortran':>10}")
    print(f"{'jacobi':<10} {r['fortran_ms']:>11.3f} {r['c_ms']:>9.3f} {ratio:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
