"""GPU check of Python kernels on the nvidia device (issue 10, dispatcher):
NumPy arrays (implicit copies), arrays kept present with acc.data, CuPy
arrays used in place, the specialisation per device type, inspect()'s PTX,
and the dispatch cost of a cached call next to the same C function through
acc.c. Run on a GPU machine with the accjit wheel:

    python scripts/gpu/pykernels_nvidia.py

Prints a table last; exit 1 when a check fails. Without CuPy the CuPy rows
are skipped (not failed).
"""

from __future__ import annotations

import sys
import time
import timeit

import numpy as np

import accjit as acc

rows: list[tuple[str, str, str]] = []


def row(what: str, value: str, ok: bool | None = None) -> None:
    status = "" if ok is None else ("ok" if ok else "FAIL")
    rows.append((what, value, status))
    print(f"  {what}: {value} {status}", flush=True)


@acc.parallel
def saxpy(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.parallel
def scale2d(a, s):
    n, m = a.shape
    for i in acc.loop(n):
        for j in range(m):
            a[i, j] = a[i, j] * s


C_SAXPY = r"""
void saxpy(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def check(what, f):
    try:
        ok, value = f()
        row(what, value, ok)
    except Exception as e:  # a failing row, not a crash of the whole check
        row(what, f"{type(e).__name__}: {str(e).splitlines()[0][:120]}", False)


def numpy_arrays():
    rng = np.random.default_rng(42)
    x = rng.random(1 << 20).astype(np.float32)
    y = rng.random(1 << 20).astype(np.float32)
    want = 2.5 * x + y
    t0 = time.perf_counter()
    saxpy(np.float32(2.5), x, y)
    first = time.perf_counter() - t0
    return bool(np.allclose(y, want, rtol=1e-6)), f"implicit copies right; first call {first * 1e3:.1f} ms"


def layouts():
    base = np.random.default_rng(1).random((64, 48))
    ok = True
    for v in (base.copy(), np.asfortranarray(base), base.copy()[:, ::2], base.copy()[::-1]):
        want = v * 3
        scale2d(v, 3.0)
        ok &= bool(np.allclose(v, want))
    return ok, ", ".join(" ".join(s) for s in scale2d.signatures)


def present_data():
    x = np.arange(1 << 16, dtype=np.float32)
    y = np.zeros_like(x)
    with acc.data(copyin=[x], copy=[y]):
        for _ in range(3):
            saxpy(np.float32(1.0), x, y)
        partial = y.copy()  # device copy not yet back
    return bool(np.allclose(y, 3 * x)) and not np.allclose(partial, 3 * x), "acc.data keeps arrays present across calls"


def cupy_in_place():
    try:
        import cupy as cp
    except ImportError:
        return None, "CuPy not installed (skipped)"
    x = cp.arange(1 << 16, dtype=cp.float32)
    y = cp.ones_like(x)
    saxpy(np.float32(2.0), x, y)
    ok = bool(cp.allclose(y, 2 * x + 1))
    return ok, "CuPy arrays used in place"


def ptx():
    info = saxpy.inspect(("float32", "float32[:]", "float32[:]"), code=True)
    text = info.get("ptx", "")
    return ".entry" in text and info["device_type"] == "nvidia", f"{len(text.splitlines())} PTX lines; loops: " + "; ".join(
        f"{lp['schedule']}" for lp in info["loops"])


def dispatch_cost():
    lib = acc.c(C_SAXPY)
    x = np.ones(16, np.float32)
    y = np.ones_like(x)
    acc.copyin(x)
    acc.copyin(y)
    try:
        f = lib.saxpy
        a = np.float32(2.0)
        f(16, a, x, y)
        saxpy(a, x, y)
        n = 20000
        tc = min(timeit.repeat(lambda: f(16, a, x, y), number=n, repeat=5)) / n
        tp = min(timeit.repeat(lambda: saxpy(a, x, y), number=n, repeat=5)) / n
    finally:
        acc.delete(x)
        acc.delete(y)
    return tp - tc <= 3e-6, f"acc.c {tc * 1e6:.2f} us, Python kernel {tp * 1e6:.2f} us per call (present data)"


def main() -> int:
    n = acc.get_num_devices("nvidia")
    row("nvidia devices", str(n), n > 0)
    if n == 0:
        return finish()
    acc.set_device_type("nvidia")
    check("saxpy on NumPy arrays", numpy_arrays)
    check("C/F/strided layouts", layouts)
    check("acc.data around calls", present_data)
    check("CuPy arrays", cupy_in_place)
    check("inspect(code=True) PTX", ptx)
    check("cached call cost vs acc.c", dispatch_cost)
    acc.set_device_type("multicore")
    check("same kernel back on multicore", lambda: (saxpy(np.float32(1.0), np.ones(4, np.float32), np.zeros(4, np.float32)) is None,
                                                     f"{len(saxpy._signatures())} (device, signature) pairs"))
    return finish()


def finish() -> int:
    print()
    w = max(len(r[0]) for r in rows)
    for what, value, status in rows:
        print(f"{what:<{w}}  {status:<4}  {value}")
    return 1 if any(s == "FAIL" for _, _, s in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
