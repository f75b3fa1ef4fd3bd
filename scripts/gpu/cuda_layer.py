"""GPU check of the CUDA layer's data path as Python users see it (issue 9
B.2: caching allocator, pinned-speed copies of NumPy memory), side by side
with CuPy when it is installed. Run on a GPU machine with the accjit wheel:

    python scripts/gpu/cuda_layer.py

Rows: copyin / copyout / update_device / update_self of a 1 GiB float32
NumPy array (GB/s, best of 5; the must-show is copyin >= 40 GB/s), CuPy's
cp.asarray / .get() of the same array, bytes intact after the round trips,
and the cost of copyin+delete of a 4 KiB array in a loop (the caching
allocator: no cuMemAlloc per iteration). Prints a table last; exit 1 when a
check fails. (The lower-level selftest with the kernel, cache and fault
checks is scripts/gpu/cuda_selftest.sh.)
"""

from __future__ import annotations

import sys
import time

import numpy as np

import accjit as acc

GIB = 1 << 30
rows: list[tuple[str, str, str]] = []


def row(what: str, value: str, ok: bool | None = None) -> None:
    status = "" if ok is None else ("ok" if ok else "FAIL")
    rows.append((what, value, status))
    print(f"  {what}: {value} {status}", flush=True)


def best_rate(nbytes: int, fn, reps: int = 5) -> tuple[float, float]:
    fn()  # warm-up
    rates = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        rates.append(nbytes / (time.perf_counter() - t0) / 1e9)
    rates.sort()
    return rates[-1], rates[len(rates) // 2]


def main() -> int:
    n = acc.get_num_devices("nvidia")
    row("nvidia devices", str(n), n > 0)
    if n == 0:
        return finish()
    acc.set_device_type("nvidia")
    row("device", str(acc.get_property("name", 0, "nvidia")))

    rng = np.random.default_rng(42)
    x = rng.random(GIB // 4, dtype=np.float32)
    ref = x.copy()

    def copyin_delete():
        acc.copyin(x)
        acc.delete(x)

    best, med = best_rate(x.nbytes, copyin_delete)
    row("copyin 1 GiB NumPy (+delete) >= 40 GB/s", f"best {best:.1f} GB/s, median {med:.1f}", best >= 40.0)

    acc.copyin(x)
    best, med = best_rate(x.nbytes, lambda: acc.update_device(x))
    row("update_device 1 GiB", f"best {best:.1f} GB/s, median {med:.1f}")
    x[:] = 0
    best, med = best_rate(x.nbytes, lambda: acc.update_self(x))
    row("update_self 1 GiB", f"best {best:.1f} GB/s, median {med:.1f}")
    row("bytes intact after the round trips", "", bool(np.array_equal(x, ref)))
    acc.copyout(x)
    row("copyout leaves the array unchanged", "", bool(np.array_equal(x, ref)))

    small = rng.random(1024, dtype=np.float32)
    for _ in range(100):
        acc.copyin(small)
        acc.delete(small)
    k = 2000
    t0 = time.perf_counter()
    for _ in range(k):
        acc.copyin(small)
        acc.delete(small)
    us = (time.perf_counter() - t0) / k * 1e6
    row("copyin+delete of 4 KiB (pooled), per iteration", f"{us:.1f} us")

    try:
        import cupy as cp
    except Exception:  # noqa: BLE001 - CuPy is optional
        cp = None
    if cp is not None:
        def cupy_in():
            d = cp.asarray(x)
            cp.cuda.runtime.deviceSynchronize()
            del d

        best, _ = best_rate(x.nbytes, cupy_in)
        row("CuPy cp.asarray 1 GiB (pageable)", f"best {best:.1f} GB/s")
        d = cp.asarray(x)
        best, _ = best_rate(x.nbytes, lambda: d.get())
        row("CuPy .get() 1 GiB (pageable)", f"best {best:.1f} GB/s")
        del d
    return finish()


def finish() -> int:
    w = max(len(r[0]) for r in rows) if rows else 10
    print("\n" + "-" * (w + 50))
    print(f"{'check':<{w}}  {'value':<38} status")
    print("-" * (w + 50))
    for what, value, status in rows:
        print(f"{what:<{w}}  {value:<38} {status}")
    failed = sum(1 for r in rows if r[2] == "FAIL")
    print("-" * (w + 50))
    print(f"{sum(1 for r in rows if r[2])} checks, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
