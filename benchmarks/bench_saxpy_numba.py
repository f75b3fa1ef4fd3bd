"""saxpy f32 on multicore: the Python kernel, its C twin through acc.c and
Numba parallel=True, with enough calls to see the spread, not one number.

saxpy is memory-bound (12 bytes per element), so the three should be at
parity; single runs of bench_pykernels.py showed 0.94x to 1.9x against Numba.
This script measures the distribution: it runs R rounds, each timing K calls
of every contender back to back (the order rotated every round), and prints
per contender min / p10 / median / p90 (ms and GB/s), then in how many
rounds the Python kernel's median beat Numba's.

Arms (each a separate array pair, so nothing is shared between them):
  numpy-alloc   arrays made by NumPy on the calling thread (its pages are
                first touched there, as in bench_pykernels.py)
  kernel-touch  arrays allocated with np.empty and first written by an accjit
                parallel loop, so each page is first touched by the thread
                whose gangs later read and write it (matters on NUMA hosts)

    python benchmarks/bench_saxpy_numba.py [--n N] [--rounds R] [--calls K]

ACCJIT_NUM_THREADS / NUMBA_NUM_THREADS set the thread counts as usual.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

import accjit as acc

try:
    import numba
    from numba import njit, prange

    HAVE_NUMBA = True
except Exception:
    HAVE_NUMBA = False

C_SOURCE = r"""
void saxpy(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop gang vector copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


@acc.parallel(copyin=["x"], copy=["y"])
def py_saxpy(a, x, y):
    for i in acc.loop(x.shape[0], gang=True, vector=True):
        y[i] = a * x[i] + y[i]


@acc.parallel(copyout=["x"])
def py_fill(x, seed):
    for i in acc.loop(x.shape[0], gang=True, vector=True):
        x[i] = ((i * 7919 + seed) % 1000) * np.float32(0.001)


if HAVE_NUMBA:

    @njit(parallel=True)
    def nb_saxpy(a, x, y):
        for i in prange(x.size):
            y[i] = a * x[i] + y[i]


def quantile(v, q):
    v = sorted(v)
    return v[int(q * (len(v) - 1))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--calls", type=int, default=10)
    args = ap.parse_args(argv)
    acc.set_device_type("multicore")
    lib = acc.c(C_SOURCE, name="bench_saxpy_numba.c")
    n, a = args.n, np.float32(2.5)
    rng = np.random.default_rng(0)
    arms = {}
    x0, y0 = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    arms["numpy-alloc"] = (x0, y0)
    x1, y1 = np.empty(n, dtype=np.float32), np.empty(n, dtype=np.float32)
    py_fill(x1, 1)
    py_fill(y1, 2)
    arms["kernel-touch"] = (x1, y1)
    print(f"saxpy f32 n={n:,} on multicore: {os.cpu_count()} CPUs, accjit threads {os.environ.get('ACCJIT_NUM_THREADS', 'all')}; "
          + (f"Numba {numba.__version__} threads {numba.get_num_threads()}" if HAVE_NUMBA else "no Numba"))
    ok = True
    for arm, (x, y) in arms.items():
        fs = {"Python": lambda: py_saxpy(a, x, y), "acc.c": lambda: lib.saxpy(n, a, x, y)}
        if HAVE_NUMBA:
            fs["Numba"] = lambda: nb_saxpy(a, x, y)
        # correctness on a copy of y's current contents
        y_before = y.copy()
        py_saxpy(a, x, y)
        ok &= bool(np.allclose(y, a * x + y_before, rtol=1e-6))
        for f in fs.values():
            f()
        names = list(fs)
        times = {k: [] for k in names}
        wins = 0
        for r in range(args.rounds):
            order = names[r % len(names):] + names[: r % len(names)]
            per_round = {}
            for k in order:
                time.sleep(0.005)
                ts = []
                for _ in range(args.calls):
                    t = time.perf_counter()
                    fs[k]()
                    ts.append(time.perf_counter() - t)
                times[k].extend(ts)
                per_round[k] = statistics.median(ts)
            if "Numba" in per_round and per_round["Python"] <= per_round["Numba"]:
                wins += 1
        layer = numba.threading_layer() if HAVE_NUMBA else "-"
        print(f"\n[{arm}] (Numba threading layer: {layer})")
        print(f"{'':8} {'min':>8} {'p10':>8} {'median':>8} {'p90':>8}   {'GB/s med':>8}")
        for k in names:
            v = times[k]
            med = statistics.median(v)
            print(f"{k:8} {min(v) * 1e3:8.3f} {quantile(v, .1) * 1e3:8.3f} {med * 1e3:8.3f} {quantile(v, .9) * 1e3:8.3f}   {12 * n / med / 1e9:8.1f}")
        if HAVE_NUMBA:
            r = statistics.median(times["Numba"]) / statistics.median(times["Python"])
            print(f"Python vs Numba: {r:.2f}x on the medians; Python's round median at or below Numba's in {wins}/{args.rounds} rounds")
    print("\n(ms per call; GB/s counts 12 bytes per element)" + ("" if ok else "\nWRONG results"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
