"""accjit on the multicore device vs NumPy vs Numba (parallel=True + prange).

Kernels (the loops of shared/bench/kernels.c): saxpy float64 (10M) and
float32, a 5-point Jacobi sweep, a sum reduction and a naive matmul. Each is
timed best-of-N after a warm-up and checked against NumPy. Then compile
timings (a cold compile of a never-seen source, a cached second compile) and
the launch overhead of an empty kernel from Python.

    python benchmarks/bench_multicore.py [--quick] [--reps N] [--threads T]

Numba columns are skipped (with a note) when numba is not installed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid

import numpy as np

import accjit as acc

try:
    import numba
    from numba import njit, prange

    HAVE_NUMBA = True
except Exception:  # ImportError, or a numba that does not match this NumPy
    HAVE_NUMBA = False

SOURCE = r"""
void saxpy_d(long n, double a, const double *x, double *y) {
    #pragma acc parallel loop gang vector copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void saxpy_f(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop gang vector copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void jacobi(int m, const float *A, float *B) {
    #pragma acc parallel loop collapse(2) copyin(A[0:m*m]) copy(B[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
}
double sum(long n, const float *x) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}
void matmul(int n, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) copyin(P[0:n*n], Q[0:n*n]) copyout(R[0:n*n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];
            R[i * n + j] = s;
        }
}
void empty(int n) {
    #pragma acc parallel num_gangs(1)
    { }
}
"""

if HAVE_NUMBA:

    @njit(parallel=True, fastmath=False)
    def nb_saxpy(a, x, y):
        for i in prange(x.size):
            y[i] = a * x[i] + y[i]

    @njit(parallel=True)
    def nb_jacobi(A, B):
        m = A.shape[0]
        for i in prange(1, m - 1):
            for j in range(1, m - 1):
                B[i, j] = np.float32(0.25) * (A[i - 1, j] + A[i + 1, j] + A[i, j - 1] + A[i, j + 1])

    @njit(parallel=True)
    def nb_sum(x):
        s = 0.0
        for i in prange(x.size):
            s += x[i]
        return s

    @njit(parallel=True)
    def nb_matmul(P, Q, R):
        n = P.shape[0]
        for i in prange(n):
            for j in range(n):
                s = np.float32(0.0)
                for k in range(n):
                    s += P[i, k] * Q[k, j]
                R[i, j] = s


def best(f, reps):
    f()  # warm-up (and Numba's compile)
    t_best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        f()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best


def fmt_ms(t):
    return "—" if t is None else f"{t * 1e3:9.3f}"


def ratio(a, b):
    return "—" if a is None or b is None else f"{a / b:6.2f}x"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (for CI smoke runs)")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None, help="accjit (and Numba) threads")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = args.reps or (3 if quick else 10)
    if args.threads:
        acc.set_num_threads(args.threads)
        if HAVE_NUMBA:
            numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    n = 1_000_000 if quick else 10_000_000
    m = 512 if quick else 2048
    mm = 128 if quick else 512

    print(f"accjit {acc.__version__}, device {acc.get_device_type()}, {acc.get_num_threads()} threads; "
          f"NumPy {np.__version__}; " + (f"Numba {numba.__version__} ({numba.get_num_threads()} threads)" if HAVE_NUMBA else "Numba not installed: its columns are skipped (pip install numba)"))
    print(f"best of {reps} after a warm-up; cpu count {os.cpu_count()}\n")

    t0 = time.perf_counter()
    lib = acc.c(SOURCE, name="bench_multicore.c")
    t_first_module = time.perf_counter() - t0

    rng = np.random.default_rng(0)
    rows = []  # (name, t_acc, t_numpy, t_numba, ok, note)
    nb_ok = []  # Numba's results are checked too, so that its column is a fair comparison

    # saxpy float64
    x = rng.random(n)
    y0 = rng.random(n)
    y = y0.copy()
    lib.saxpy_d(n, 2.5, x, y)
    ok = np.allclose(y, 2.5 * x + y0, rtol=1e-12)
    t_acc = best(lambda: lib.saxpy_d(n, 2.5, x, y), reps)
    t_np = best(lambda: np.add(np.multiply(2.5, x), y, out=y), reps)
    t_nb = best(lambda: nb_saxpy(2.5, x, y), reps) if HAVE_NUMBA else None
    if HAVE_NUMBA:
        yn = y0.copy()
        nb_saxpy(2.5, x, yn)
        nb_ok.append(np.allclose(yn, 2.5 * x + y0, rtol=1e-12))
    rows.append((f"saxpy f64 n={n:,}", t_acc, t_np, t_nb, ok, f"{24 * n / t_acc / 1e9:.1f} GB/s"))

    # saxpy float32
    xf = x.astype(np.float32)
    yf0 = y0.astype(np.float32)
    yf = yf0.copy()
    lib.saxpy_f(n, 2.5, xf, yf)
    ok = np.allclose(yf, np.float32(2.5) * xf + yf0, rtol=1e-6)
    t_acc = best(lambda: lib.saxpy_f(n, 2.5, xf, yf), reps)
    t_np = best(lambda: np.add(np.multiply(np.float32(2.5), xf), yf, out=yf), reps)
    t_nb = best(lambda: nb_saxpy(np.float32(2.5), xf, yf), reps) if HAVE_NUMBA else None
    rows.append((f"saxpy f32 n={n:,}", t_acc, t_np, t_nb, ok, f"{12 * n / t_acc / 1e9:.1f} GB/s"))

    # Jacobi
    A = rng.random((m, m), dtype=np.float32)
    B = np.zeros_like(A)
    lib.jacobi(m, A, B)
    ref = np.zeros_like(A)
    ref[1:-1, 1:-1] = np.float32(0.25) * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    ok = np.allclose(B, ref, rtol=1e-6)

    def np_jacobi():
        ref[1:-1, 1:-1] = np.float32(0.25) * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])

    t_acc = best(lambda: lib.jacobi(m, A, B), reps)
    t_np = best(np_jacobi, reps)
    Bn = np.zeros_like(A)
    t_nb = best(lambda: nb_jacobi(A, Bn), reps) if HAVE_NUMBA else None
    if HAVE_NUMBA:
        nb_ok.append(np.allclose(Bn, ref, rtol=1e-6))
    rows.append((f"jacobi f32 {m}x{m}", t_acc, t_np, t_nb, ok, f"{8 * m * m / t_acc / 1e9:.1f} GB/s"))

    # sum reduction
    s = lib.sum(n, xf)
    ok = abs(s - float(xf.sum(dtype=np.float64))) <= 1e-9 * n
    t_acc = best(lambda: lib.sum(n, xf), reps)
    t_np = best(lambda: xf.sum(dtype=np.float64), reps)
    t_nb = best(lambda: nb_sum(xf), reps) if HAVE_NUMBA else None
    if HAVE_NUMBA:
        nb_ok.append(abs(nb_sum(xf) - float(xf.sum(dtype=np.float64))) <= 1e-3 * n)
    rows.append((f"sum f32→f64 n={n:,}", t_acc, t_np, t_nb, ok, f"{4 * n / t_acc / 1e9:.1f} GB/s"))

    # naive matmul
    P = rng.random((mm, mm), dtype=np.float32)
    Q = rng.random((mm, mm), dtype=np.float32)
    R = np.zeros_like(P)
    lib.matmul(mm, P, Q, R)
    ok = np.allclose(R, P @ Q, rtol=1e-4)
    mreps = max(1, reps // 3)
    t_acc = best(lambda: lib.matmul(mm, P, Q, R), mreps)
    t_np = best(lambda: P @ Q, mreps)
    Rn = np.zeros_like(P)
    t_nb = best(lambda: nb_matmul(P, Q, Rn), mreps) if HAVE_NUMBA else None
    if HAVE_NUMBA:
        nb_ok.append(np.allclose(Rn, P @ Q, rtol=1e-4))
    rows.append((f"matmul f32 {mm}³ (naive)", t_acc, t_np, t_nb, ok, f"{2 * mm ** 3 / t_acc / 1e9:.1f} GFLOP/s; NumPy uses BLAS"))

    w = max(len(r[0]) for r in rows)
    print(f"{'kernel':<{w}}  {'accjit ms':>9}  {'numpy ms':>9}  {'numba ms':>9}  {'np/acc':>7}  {'nb/acc':>7}  check  note")
    for name, ta, tn, tb, good, note in rows:
        print(f"{name:<{w}}  {fmt_ms(ta)}  {fmt_ms(tn)}  {fmt_ms(tb)}  {ratio(tn, ta):>7}  {ratio(tb, ta):>7}  {'ok' if good else 'WRONG':5}  {note}")

    # Compile timings: a source never seen before (unique comment), then the cached one.
    fresh = SOURCE + f"\n/* {uuid.uuid4()} */\n"
    t = time.perf_counter()
    mod = acc.c(fresh)
    t_cold = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(100):
        acc.c(fresh)
    t_cached = (time.perf_counter() - t) / 100
    tm = mod.timings
    small = "void k(int n, float *a) {\n#pragma acc parallel loop\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}\n" + f"/* {uuid.uuid4()} */"
    t = time.perf_counter()
    acc.c(small)
    t_small = time.perf_counter() - t
    print()
    print(f"first compile (module load incl.)   {t_first_module * 1e3:8.2f} ms  ({len(SOURCE.splitlines())} lines, 6 functions)")
    print(f"cold compile of a new source        {t_cold * 1e3:8.2f} ms  (parse {tm['parse'] * 1e3:.2f}, lower {tm['lower'] * 1e3:.2f}, codegen {tm['codegen'] * 1e3:.2f})")
    print(f"cold compile of a one-loop kernel   {t_small * 1e3:8.2f} ms")
    print(f"cached compile (same source)        {t_cached * 1e3:8.4f} ms")

    # Launch overhead: an empty kernel, and a plain C call, from Python.
    k = 2000 if quick else 20000
    mod2 = acc.c("int nop(int x) { return x; }")

    def per_call(f):
        f()
        t_best = float("inf")
        for _ in range(5):  # best batch: the machine may be busy
            t = time.perf_counter()
            for _ in range(k // 5):
                f()
            t_best = min(t_best, (time.perf_counter() - t) / (k // 5))
        return t_best

    t_launch = per_call(lambda: lib.empty(0))
    t_call = per_call(lambda: mod2.nop(1))
    print(f"Python → C call (no kernel)         {t_call * 1e6:8.2f} µs")
    print(f"Python → empty kernel launch        {t_launch * 1e6:8.2f} µs")
    if HAVE_NUMBA and not all(nb_ok):
        print("\nnote: some Numba results did not match NumPy")
    bad = [r[0] for r in rows if not r[4]]
    if bad:
        print(f"\nWRONG results: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
