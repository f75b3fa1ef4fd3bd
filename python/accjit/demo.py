"""`python -m accjit.demo`: saxpy and a Jacobi sweep on the multicore device,
checked against NumPy, with timings."""

from __future__ import annotations

import time

import numpy as np

import accjit as acc

SOURCE = r"""
void saxpy(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

/* One 5-point Jacobi sweep of an m x m grid: b = average of a's neighbours. */
void jacobi(int m, const float *a, float *b) {
    #pragma acc parallel loop collapse(2) copyin(a[0:m*m]) copy(b[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            b[i * m + j] = 0.25f * (a[(i - 1) * m + j] + a[(i + 1) * m + j]
                                  + a[i * m + j - 1] + a[i * m + j + 1]);
}
"""


def best_of(f, reps=5):
    f()  # warm-up
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    t = time.perf_counter()
    lib = acc.c(SOURCE)
    t_compile = time.perf_counter() - t
    t = time.perf_counter()
    acc.c(SOURCE)
    t_cached = time.perf_counter() - t
    threads = acc.get_num_threads()
    print(f"accjit {acc.__version__}: device {lib.device_type}, {threads} threads")
    print(f"compile: {t_compile * 1e3:.1f} ms first, {t_cached * 1e3:.3f} ms cached "
          f"(parse {lib.timings['parse'] * 1e3:.1f} ms, lower {lib.timings['lower'] * 1e3:.1f} ms, "
          f"codegen {lib.timings['codegen'] * 1e3:.1f} ms)")
    print(lib.saxpy.__doc__.splitlines()[0])
    print(lib.jacobi.__doc__.splitlines()[0])
    print()

    rng = np.random.default_rng(0)
    ok = True

    n = 10_000_000
    x = rng.random(n, dtype=np.float32)
    y0 = rng.random(n, dtype=np.float32)
    y = y0.copy()
    lib.saxpy(n, 2.5, x, y)
    ref = np.float32(2.5) * x + y0
    err = float(np.max(np.abs(y - ref)))
    ok &= err <= 1e-6
    t_acc = best_of(lambda: lib.saxpy(n, 2.5, x, y))
    t_np = best_of(lambda: np.float32(2.5) * x + y)
    print(f"saxpy   n={n:>9}  accjit {t_acc * 1e3:7.2f} ms  numpy {t_np * 1e3:7.2f} ms  "
          f"speed-up {t_np / t_acc:5.2f}x  max|err| {err:.1e}  {'ok' if err <= 1e-6 else 'WRONG'}")

    m = 2048
    a = rng.random((m, m), dtype=np.float32)
    b = np.zeros_like(a)
    lib.jacobi(m, a, b)
    ref = np.zeros_like(a)
    ref[1:-1, 1:-1] = np.float32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    err = float(np.max(np.abs(b - ref)))
    ok &= err <= 1e-6
    t_acc = best_of(lambda: lib.jacobi(m, a, b))

    def np_jacobi():
        ref[1:-1, 1:-1] = np.float32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])

    t_np = best_of(np_jacobi)
    print(f"jacobi  m={m:>9}  accjit {t_acc * 1e3:7.2f} ms  numpy {t_np * 1e3:7.2f} ms  "
          f"speed-up {t_np / t_acc:5.2f}x  max|err| {err:.1e}  {'ok' if err <= 1e-6 else 'WRONG'}")
    print()
    print("all results match NumPy" if ok else "MISMATCH against NumPy")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
