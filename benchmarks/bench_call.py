"""The cost of a call from Python into compiled code (issue 9: "launch of a
tiny kernel on present data from Python ≤ 4 µs").

    python benchmarks/bench_call.py [--calls N] [--no-nvidia] [--only KIND]

Rows, each the median of N timed calls (default 20000) after 2000 warm-up
calls, with a 16-element float32 array:

- empty C function (`nothing(16, a)`): the call path alone (argument
  conversion, hand-off or inline run, return);
- tiny kernel (`a[i] += 1` over 16 elements) compiled for `multicore` and
  for `host`, the array made present by `acc.data`;
- when an nvidia device is present (and not `--no-nvidia`): the same tiny
  kernel on present data, synchronous (call to return) and `async(1)` (500
  launches then one `acc.wait(1)`, per launch), as benchmarks/bench_nvidia.py
  measures it.

Every row checks its result (not over the fake libcuda of the runtime's
tests, which runs no kernel: with `FAKE_CUDA_ANY_KERNEL=1` set, the nvidia
rows time the whole host side of a launch; see docs/cuda.md). `ACCJIT_CALL_INLINE=0` in the environment turns
the inline call path off (every call handed to a worker thread), for
before/after comparisons. The table is printed last.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import accjit as acc

SOURCE = r"""
void nothing(int n, float *a) { }
void tiny(int n, float *a) {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1.0f;
}
void tiny_async(int n, float *a) {
    #pragma acc parallel loop present(a[0:n]) async(1)
    for (int i = 0; i < n; i++) a[i] += 1.0f;
}
"""

WARMUP = 2000
ASYNC_LAUNCHES = 500


def median_call(f, calls):
    """Median seconds of one call of `f` over `calls` timed calls."""
    for _ in range(WARMUP):
        f()
    ts = np.empty(calls)
    pc = time.perf_counter
    for i in range(calls):
        t0 = pc()
        f()
        ts[i] = pc() - t0
    return float(np.median(ts))


def rows_for(device_type, calls, rng):
    """(name, seconds, ok) rows of one device type."""
    lib = acc.c(SOURCE, name="bench_call.c", device_type=device_type)
    a = rng.random(16, dtype=np.float32)
    a0 = a.copy()
    out = []
    acc.set_device_type(device_type)
    with acc.data(copy=[a]):
        t = median_call(lambda: lib.nothing(16, a), calls)
        out.append((f"{device_type}: empty C function", t, True))
        t = median_call(lambda: lib.tiny(16, a), calls)
        n = WARMUP + calls
        if device_type == "nvidia":
            rounds = 20
            for _ in range(100):
                lib.tiny_async(16, a)
            acc.wait(1)
            ts = []
            for _ in range(rounds):
                t0 = time.perf_counter()
                for _ in range(ASYNC_LAUNCHES):
                    lib.tiny_async(16, a)
                acc.wait(1)
                ts.append((time.perf_counter() - t0) / ASYNC_LAUNCHES)
            n += 100 + rounds * ASYNC_LAUNCHES
            async_row = (f"{device_type}: tiny kernel, async(1), per launch", float(np.median(ts)))
    ok = bool(np.allclose(a, a0 + n)) or (device_type == "nvidia" and os.environ.get("FAKE_CUDA_ANY_KERNEL") == "1")
    out.append((f"{device_type}: tiny kernel on present data", t, ok))
    if device_type == "nvidia":
        out.append(async_row + (ok,))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--no-nvidia", action="store_true")
    ap.add_argument("--only", choices=["multicore", "host", "nvidia"], help="one device type (e.g. under perf)")
    args = ap.parse_args()
    rng = np.random.default_rng(int(time.time()))
    kinds = ["multicore", "host"]
    if not args.no_nvidia:
        try:
            if acc.get_num_devices("nvidia") > 0:
                kinds.append("nvidia")
        except Exception as e:  # noqa: BLE001
            print("no nvidia device:", e)
    if args.only:
        kinds = [args.only]
    rows = []
    for k in kinds:
        rows += rows_for(k, args.calls, rng)
    inline = os.environ.get("ACCJIT_CALL_INLINE", "1")
    print(f"\naccjit {acc.__version__}, {os.cpu_count()} CPUs, ACCJIT_CALL_INLINE={inline}, median of {args.calls} calls")
    print(f"{'call':<48} {'µs':>8}  check")
    for name, t, ok in rows:
        print(f"{name:<48} {t * 1e6:8.2f}  {'ok' if ok else 'WRONG'}")
    if not all(ok for _, _, ok in rows):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
