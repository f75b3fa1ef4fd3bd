"""accjit on the multicore device vs NumPy vs Numba (parallel=True + prange).

Kernels (the loops of shared/bench/kernels.c): saxpy float64 (10M) and
float32, a 5-point Jacobi sweep, a sum reduction and a naive matmul. Each is
timed best-of-N after a warm-up, in the same run as NumPy and Numba, and
checked against NumPy. The table's ratio columns say how many times faster
accjit is (above 1: accjit wins). Then compile and launch costs: the first
call of a never-seen kernel (compile + load + run), a cached second compile,
the JIT of a one-loop kernel, and the launch overhead from Python.

    python benchmarks/bench_multicore.py [--quick] [--reps N] [--threads T] [--n N] [--m M]

Numba columns are skipped (with a note) when numba is not installed. Set
ACCJIT_NO_SIMD=1 to measure accjit's scalar loops (no vectorisation).
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
void tiny(long n, float *y) {
    #pragma acc parallel loop
    for (long i = 0; i < n; i++) y[i] += 1.0f;
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
    def nb_tiny(y):
        for i in prange(y.size):
            y[i] += np.float32(1.0)

    @njit(parallel=True)
    def nb_matmul(P, Q, R):
        n = P.shape[0]
        for i in prange(n):
            for j in range(n):
                s = np.float32(0.0)
                for k in range(n):
                    s += P[i, k] * Q[k, j]
                R[i, j] = s


ROUNDS = 5


def race(contenders, reps):
    """Best time of each contender (None stays None), in interleaved rounds.

    The machine's speed drifts (shared host: memory bandwidth moves by 2× over
    seconds), so no contender is timed in one block: each of ROUNDS rounds
    times every contender in turn (the order reversed every other round), a
    warm-up call and then reps // ROUNDS calls, and each keeps its best call.
    Every turn starts on an idle machine: Numba's OpenMP workers keep spinning
    for a while after its last parallel region, and would tax whatever is
    timed next (accjit's own workers park after 0.3 ms).
    """
    fs = [f for f in contenders if f is not None]
    bests = {id(f): float("inf") for f in fs}
    per_round = max(2, -(-reps // ROUNDS))
    for r in range(ROUNDS):
        for f in (fs if r % 2 == 0 else fs[::-1]):
            time.sleep(0.05)
            f()  # warm-up (and, the first time, Numba's compile)
            for _ in range(per_round):
                t = time.perf_counter()
                f()
                bests[id(f)] = min(bests[id(f)], time.perf_counter() - t)
    return [None if f is None else bests[id(f)] for f in contenders]


def fmt_ms(t):
    return f"{'—':>9}" if t is None else f"{t * 1e3:9.3f}"


def ratio(a, b):
    """How many times faster `b` (accjit) is than `a`."""
    return "—" if a is None or b is None else f"{a / b:6.2f}×"


def per_call(f, k):
    """Best per-call time over 5 batches of k // 5 calls (the machine may be busy)."""
    f()
    t_best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(k // 5):
            f()
        t_best = min(t_best, (time.perf_counter() - t) / (k // 5))
    return t_best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (for CI smoke runs)")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--threads", type=int, default=None, help="accjit (and Numba) threads")
    ap.add_argument("--n", type=int, default=None, help="length of the saxpy and sum vectors (default 10M)")
    ap.add_argument("--m", type=int, default=None, help="Jacobi grid side (default 2048)")
    args = ap.parse_args(argv)
    quick = args.quick
    reps = args.reps or (5 if quick else 30)
    if args.threads:
        acc.set_num_threads(args.threads)
        if HAVE_NUMBA:
            numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    n = args.n or (1_000_000 if quick else 10_000_000)
    m = args.m or (512 if quick else 2048)
    mm = 128 if quick else 512

    simd = "off (ACCJIT_NO_SIMD)" if os.environ.get("ACCJIT_NO_SIMD") else "on"
    print(f"accjit {acc.__version__}: device {acc.get_device_type()}, {acc.get_num_threads()} threads, SIMD {simd}; "
          f"NumPy {np.__version__}; " + (f"Numba {numba.__version__} parallel=True ({numba.get_num_threads()} threads)" if HAVE_NUMBA else "Numba not installed: its columns are skipped (pip install numba)"))
    print(f"best call of each, {ROUNDS} interleaved rounds of {max(2, -(-reps // ROUNDS))} calls after a warm-up, "
          f"all in this run; cpu count {os.cpu_count()}\n")

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
    t_acc, t_np, t_nb = race([
        lambda: lib.saxpy_d(n, 2.5, x, y),
        lambda: np.add(np.multiply(2.5, x), y, out=y),
        (lambda: nb_saxpy(2.5, x, y)) if HAVE_NUMBA else None,
    ], reps)
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
    t_acc, t_np, t_nb = race([
        lambda: lib.saxpy_f(n, 2.5, xf, yf),
        lambda: np.add(np.multiply(np.float32(2.5), xf), yf, out=yf),
        (lambda: nb_saxpy(np.float32(2.5), xf, yf)) if HAVE_NUMBA else None,
    ], reps)
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

    Bn = np.zeros_like(A)
    t_acc, t_np, t_nb = race([
        lambda: lib.jacobi(m, A, B),
        np_jacobi,
        (lambda: nb_jacobi(A, Bn)) if HAVE_NUMBA else None,
    ], reps)
    if HAVE_NUMBA:
        nb_ok.append(np.allclose(Bn, ref, rtol=1e-6))
    rows.append((f"jacobi f32 {m}x{m}", t_acc, t_np, t_nb, ok, f"{8 * m * m / t_acc / 1e9:.1f} GB/s"))

    # sum reduction
    s = lib.sum(n, xf)
    ok = abs(s - float(xf.sum(dtype=np.float64))) <= 1e-9 * n
    t_acc, t_np, t_nb = race([
        lambda: lib.sum(n, xf),
        lambda: xf.sum(dtype=np.float64),
        (lambda: nb_sum(xf)) if HAVE_NUMBA else None,
    ], reps)
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
    Rn = np.zeros_like(P)
    t_acc, t_np, t_nb = race([
        lambda: lib.matmul(mm, P, Q, R),
        lambda: P @ Q,
        (lambda: nb_matmul(P, Q, Rn)) if HAVE_NUMBA else None,
    ], mreps)
    if HAVE_NUMBA:
        nb_ok.append(np.allclose(Rn, P @ Q, rtol=1e-4))
    rows.append((f"matmul f32 {mm}³ (naive)", t_acc, t_np, t_nb, ok, f"{2 * mm ** 3 / t_acc / 1e9:.1f} GFLOP/s; NumPy uses BLAS"))

    w = max(len(r[0]) for r in rows)
    print(f"{'kernel':<{w}}  {'accjit':>9}  {'NumPy':>9}  {'Numba':>9}  {'vs NumPy':>8}  {'vs Numba':>8}  check  accjit rate")
    print(f"{'':<{w}}  {'ms':>9}  {'ms':>9}  {'ms':>9}  {'×faster':>8}  {'×faster':>8}")
    for name, ta, tn, tb, good, note in rows:
        print(f"{name:<{w}}  {fmt_ms(ta)}  {fmt_ms(tn)}  {fmt_ms(tb)}  {ratio(tn, ta):>8}  {ratio(tb, ta):>8}  {'ok' if good else 'WRONG':5}  {note}")

    # Compile costs. First call of a new kernel: a source never seen before
    # (unique comment), compiled, loaded and run once.
    uid = uuid.uuid4()
    small = "void k(long n, float *a) {\n#pragma acc parallel loop\nfor (long i = 0; i < n; i++) a[i] += 1.0f;\n}\n" + f"/* {uid} */"
    buf = np.zeros(1000, dtype=np.float32)
    t = time.perf_counter()
    m_small = acc.c(small)
    t_small = time.perf_counter() - t
    m_small.k(buf.size, buf)
    t_first = time.perf_counter() - t
    fresh = SOURCE + f"\n/* {uuid.uuid4()} */\n"
    t = time.perf_counter()
    mod = acc.c(fresh)
    t_cold = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(100):
        acc.c(fresh)
    t_cached = (time.perf_counter() - t) / 100
    tm = mod.timings
    t_nb_first = None
    if HAVE_NUMBA:
        def nb_fresh(a):
            for i in prange(a.size):
                a[i] += np.float32(1.0)
        f_nb = njit(parallel=True)(nb_fresh)
        t = time.perf_counter()
        f_nb(buf)
        t_nb_first = time.perf_counter() - t

    # Launch overhead from Python.
    k = 2000 if quick else 20000
    mod2 = acc.c("int nop(int x) { return x; }")
    t_launch = per_call(lambda: lib.empty(0), k)
    t_call = per_call(lambda: mod2.nop(1), k)
    yt = np.zeros(16, dtype=np.float32)
    t_tiny = per_call(lambda: lib.tiny(yt.size, yt), k // 4)
    t_nb_tiny = per_call(lambda: nb_tiny(yt), k // 4) if HAVE_NUMBA else None

    def us(t):
        return f"{'—':>9}" if t is None else f"{t * 1e6:9.2f}"

    print()
    print(f"{'compile and launch':<44}  {'accjit':>9}  {'Numba':>9}  target")
    print(f"{'first call of a new kernel, ms':<44}  {t_first * 1e3:9.2f}  {fmt_ms(t_nb_first)}  ≤ 20 ms (compile + load + run)")
    print(f"{'cached compile (same source), ms':<44}  {t_cached * 1e3:9.4f}  {'':>9}  ≤ 1 ms")
    print(f"{'total JIT of a one-loop kernel, ms':<44}  {t_small * 1e3:9.2f}  {'':>9}  ≤ 10 ms")
    print(f"{'cold compile of this benchmark source, ms':<44}  {t_cold * 1e3:9.2f}  {'':>9}  "
          f"({len(SOURCE.splitlines())} lines: parse {tm['parse'] * 1e3:.2f}, lower {tm['lower'] * 1e3:.2f}, codegen {tm['codegen'] * 1e3:.2f}; first load {t_first_module * 1e3:.2f})")
    print(f"{'launch: empty kernel (1 gang), µs':<44}  {us(t_launch)}  {'':>9}  ≤ 4 µs")
    print(f"{'launch: parallel loop of 16 (all gangs), µs':<44}  {us(t_tiny)}  {us(t_nb_tiny)}")
    print(f"{'Python → C call (no kernel), µs':<44}  {us(t_call)}")
    if HAVE_NUMBA and not all(nb_ok):
        print("\nnote: some Numba results did not match NumPy")
    bad = [r[0] for r in rows if not r[4]]
    if bad:
        print(f"\nWRONG results: {', '.join(bad)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
