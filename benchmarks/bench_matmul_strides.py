"""Naive matmul on multicore: the Python kernel beside the same loops in C
through acc.c, once with one `n` (bench_pykernels.py's C twin) and once
with three stride arguments, as the Python kernel indexes its arrays.

Why: the Python kernel used to trail its C twin (0.85-0.92x) because its
addresses are `P + i*sp + k` and `Q + k*sq + j` with run-time strides; the
Cranelift back end now turns such addresses of sequential loops into pointer
streams (rust/back/clif/src/stream.rs). With ACCJIT_NO_STREAMS=1 the loops
keep their address arithmetic: run the script both ways to see the
difference on this machine (`--compare` runs itself once more with it set).

    python benchmarks/bench_matmul_strides.py [--device multicore] [--sizes 128,256,512] [--reps N] [--stat median|best] [--compare]

Each row: median (or best, --stat best) ms over interleaved calls (order reversed every other
round), every result checked against NumPy; ratios are "times faster than
the C twin with one n" (above 1: faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

import accjit as acc

C_SOURCE = r"""
void mm_n(long n, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) copyin(P[0:n*n], Q[0:n*n]) copyout(R[0:n*n])
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (long k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];
            R[i * n + j] = s;
        }
}
void mm_strides(long n, long sp, long sq, long sr, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) copyin(P[0:n*sp], Q[0:n*sq]) copyout(R[0:n*sr])
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (long k = 0; k < n; k++) s += P[i * sp + k] * Q[k * sq + j];
            R[i * sr + j] = s;
        }
}
"""


@acc.parallel(copyin=["P", "Q"], copyout=["R"])
def py_matmul(P, Q, R):
    n = P.shape[0]
    for i in acc.loop(n, gang=True, collapse=2):
        for j in range(n):
            s = np.float32(0.0)
            for k in acc.loop(n, seq=True):
                s += P[i, k] * Q[k, j]
            R[i, j] = s


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=os.environ.get("ACC_DEVICE_TYPE") or "multicore")
    ap.add_argument("--sizes", default="128,256,512")
    ap.add_argument("--reps", type=int, default=0, help="timed calls per contender (default: by size)")
    ap.add_argument("--stat", choices=("median", "best"), default="median", help="time of a contender over its calls")
    ap.add_argument("--compare", action="store_true", help="then run again with ACCJIT_NO_STREAMS=1")
    args = ap.parse_args(argv)
    acc.set_device_type(args.device)
    lib = acc.c(C_SOURCE, name="bench_matmul_strides.c")
    streams = "off (ACCJIT_NO_STREAMS)" if os.environ.get("ACCJIT_NO_STREAMS") else "on"
    print(f"naive matmul f32 on {args.device}, {os.cpu_count()} CPUs; address streams {streams}")
    print(f"{'n':>5} {'C one n':>10} {'C strides':>10} {'Python':>10} {'strides/n':>10} {'Python/n':>9}  ok")
    rng = np.random.default_rng(0)
    ok_all = True
    for n in (int(s) for s in args.sizes.split(",")):
        P = rng.random((n, n), dtype=np.float32)
        Q = rng.random((n, n), dtype=np.float32)
        outs = [np.zeros_like(P) for _ in range(3)]
        fs = [lambda: lib.mm_n(n, P, Q, outs[0]), lambda: lib.mm_strides(n, n, n, n, P, Q, outs[1]), lambda: py_matmul(P, Q, outs[2])]
        for f in fs:
            f()
        want = P @ Q
        ok = all(np.allclose(R, want, rtol=1e-4) for R in outs)
        ok_all &= ok
        reps = args.reps or max(10, min(200, int(2e8 / n**3)))
        times = [[] for _ in fs]
        for r in range(5):
            order = range(3) if r % 2 == 0 else reversed(range(3))
            for k in order:
                time.sleep(0.01)
                fs[k]()
                for _ in range(-(-reps // 5)):
                    t = time.perf_counter()
                    fs[k]()
                    times[k].append(time.perf_counter() - t)
        pick = min if args.stat == "best" else statistics.median
        med = [pick(t) for t in times]
        print(f"{n:>5} {med[0] * 1e3:10.3f} {med[1] * 1e3:10.3f} {med[2] * 1e3:10.3f} {med[0] / med[1]:9.2f}x {med[0] / med[2]:8.2f}x  {'yes' if ok else 'WRONG'}")
    print(f"(ms, {args.stat}; ratios: times faster than the C twin with one n)")
    if args.compare and not os.environ.get("ACCJIT_NO_STREAMS"):
        print()
        env = dict(os.environ, ACCJIT_NO_STREAMS="1")
        rest = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--compare"]
        r = subprocess.run([sys.executable, os.path.abspath(__file__), *rest], env=env)
        ok_all &= r.returncode == 0
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
