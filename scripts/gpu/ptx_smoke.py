"""GPU smoke test of the PTX back end, without accjit's runtime.

Each case compiles a small OpenACC C function with accjit's nvidia back end
(`accjit._core.ptx_text`: front end -> lower for "nvidia" -> PTX), loads the
PTX with CuPy (cupy.RawModule(path=...)), launches the kernel with CuPy
arrays of fresh random inputs following the kernel ABI (one 64-bit slot per
kernel parameter: integers sign-extended, a float in the low 32 bits, device
pointers), and compares with NumPy. The kernel parameter order is read from
the lowered IR (`acc.c(src).ir()`, the same capture order for every device).

Run (GPU machine, accjit wheel installed, CuPy available):
    python scripts/gpu/ptx_smoke.py            # all cases
    python scripts/gpu/ptx_smoke.py saxpy sum  # some cases
Prints one line per case and a table at the end; exit status 1 if any case failed.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
import traceback

import numpy as np

RNG = np.random.default_rng(int(time.time()))


def kernel_params(src: str) -> list[list[str]]:
    """Parameter names of every kernel, in order, from the lowered IR."""
    import accjit as acc

    ir = acc.c(src, device_type="multicore").ir()
    out = []
    for m in re.finditer(r"^kernel k\d+ @\S+?\((.*)\) -> ", ir, re.M):
        names = []
        for p in m.group(1).split(", "):
            if not p:
                continue
            names.append(re.match(r"%([A-Za-z_]\w*?)(\.\d+)?:", p).group(1))
        out.append(names)
    return out


def entries(ptx: str) -> list[str]:
    return re.findall(r"\.visible \.entry (\w+)\(", ptx)


def slot(v) -> np.uint64:
    """One kernel argument slot (docs/runtime-abi.md)."""
    import cupy as cp

    if isinstance(v, cp.ndarray):
        return np.uint64(v.data.ptr)
    if isinstance(v, np.float32):
        return np.uint64(np.array([v], dtype=np.float32).view(np.uint32)[0])
    if isinstance(v, (float, np.float64)):
        return np.array([v], dtype=np.float64).view(np.uint64)[0]
    return np.array([int(v)], dtype=np.int64).view(np.uint64)[0]


def launch(src: str, values: list[dict], grid=None, block=None):
    """Compile `src`, run its kernels in order; `values[k]` maps kernel k's
    parameter names to values. Returns seconds of the last kernel."""
    import accjit
    import cupy as cp

    ptx = accjit._core.ptx_text(src, name="smoke.c")
    names = entries(ptx)
    params = kernel_params(src)
    assert len(names) == len(params) == len(values), (names, params, len(values))
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(ptx)
        path = f.name
    # RawModule loads the file lazily (at get_function): keep it until the end.
    mod = cp.RawModule(path=path)
    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    secs = 0.0
    for name, ps, vals in zip(names, params, values):
        fn = mod.get_function(name)
        # Worker loops: 32 lanes x 4 workers (the kernel checks the lanes).
        blk = block or ((32, 4, 1) if "%gn1" in ptx.split(name, 1)[1].split(".entry", 1)[0] else (256, 1, 1))
        grd = grid or (sms * 4, 1, 1)
        args = tuple(slot(vals[p]) for p in ps)
        fn(grd, blk, args)  # warm-up (and first-launch JIT)
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn(grd, blk, args)
        stop.record()
        stop.synchronize()
        secs = cp.cuda.get_elapsed_time(start, stop) / 1e3
    os.unlink(path)
    return secs


# ---------------------------------------------------------------------------
# Cases: each returns (ok, detail).


def case_saxpy():
    import cupy as cp

    src = """
void saxpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}"""
    n = (1 << 26) + 7
    x = RNG.random(n, dtype=np.float32)
    y = RNG.random(n, dtype=np.float32)
    a = np.float32(RNG.random() * 3)
    dx, dy = cp.asarray(x), cp.asarray(y)
    # Two launches (warm-up + timed): y = a*x + (a*x + y).
    t = launch(src, [{"n": n, "a": a, "x": dx, "y": dy}])
    ref = a * x + (a * x + y)
    ok = np.allclose(dy.get(), ref, rtol=1e-5, atol=1e-5)
    return ok, f"{3 * 4 * n / t / 1e9:.0f} GB/s"


def case_jacobi():
    import cupy as cp

    src = """
void jacobi(int n, int m, const float *a, float *b) {
    #pragma acc parallel loop collapse(2) copyin(a[0:n*m]) copy(b[0:n*m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            b[i * m + j] = 0.25f * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}"""
    n, m = 4099, 4097
    a = RNG.random((n, m), dtype=np.float32)
    b = np.zeros((n, m), dtype=np.float32)
    da, db = cp.asarray(a), cp.asarray(b)
    t = launch(src, [{"n": n, "m": m, "a": da, "b": db}])
    ref = b.copy()
    ref[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    ok = np.allclose(db.get(), ref, rtol=1e-5, atol=1e-6)
    return ok, f"{2 * 4 * n * m / t / 1e9:.0f} GB/s"


def case_sum():
    import cupy as cp

    src = """
double sum(long n, const float *x) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}"""
    n = (1 << 26) + 3
    x = RNG.random(n, dtype=np.float32)
    dx = cp.asarray(x)
    ds = cp.zeros(1, dtype=np.float64)
    t = launch(src, [{"n": n, "x": dx, "s": ds}])
    ref = 2 * x.astype(np.float64).sum()  # warm-up + timed launch both add
    got = float(ds.get()[0])
    return abs(got - ref) <= 1e-6 * abs(ref), f"{4 * n / t / 1e9:.0f} GB/s  (got {got:.6g}, want {ref:.6g})"


def case_matmul():
    import cupy as cp

    src = """
void matmul(int n, const float *a, const float *b, float *c) {
    #pragma acc parallel loop collapse(2) copyin(a[0:n*n], b[0:n*n]) copyout(c[0:n*n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}"""
    n = 2048
    a = RNG.random((n, n), dtype=np.float32)
    b = RNG.random((n, n), dtype=np.float32)
    da, db, dc = cp.asarray(a), cp.asarray(b), cp.zeros((n, n), dtype=np.float32)
    t = launch(src, [{"n": n, "a": da, "b": db, "c": dc}])
    ref = (cp.asarray(a) @ cp.asarray(b)).get()
    ok = np.allclose(dc.get(), ref, rtol=1e-3, atol=1e-2)
    return ok, f"{2 * n**3 / t / 1e12:.2f} TFLOP/s"


def case_max_int():
    import cupy as cp

    src = """
int maxval(int n, const int *x) {
    int m = -2147483647 - 1;
    #pragma acc parallel loop reduction(max:m) copyin(x[0:n])
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}"""
    n = 1_000_003
    x = RNG.integers(-(10**9), 10**9, n, dtype=np.int32)
    dm = cp.full(1, np.iinfo(np.int32).min, dtype=np.int32)
    launch(src, [{"n": n, "x": cp.asarray(x), "m": dm}])
    return int(dm.get()[0]) == int(x.max()), f"got {int(dm.get()[0])}, want {int(x.max())}"


def case_worker_vector():
    import cupy as cp

    src = """
void row_sums(int n, int m, const double *a, double *out) {
    #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a[0:n*m]) copyout(out[0:n])
    for (int b = 0; b < n; b += 4) {
        #pragma acc loop worker
        for (int i = b; i < b + 4; i++) {
            double s = 0.0;
            #pragma acc loop vector reduction(+:s)
            for (int j = 0; j < m; j++) s += a[i * m + j];
            if (i < n) out[i] = s;
        }
    }
}"""
    n, m = 1000, 333
    a = RNG.random((n, m))
    dout = cp.zeros(n)
    launch(src, [{"n": n, "m": m, "a": cp.asarray(a), "out": dout}], block=(32, 4, 1))
    return np.allclose(dout.get(), a.sum(axis=1)), ""


def case_histogram():
    import cupy as cp

    src = """
void hist(int n, const int *key, int *count, double *total, const double *x) {
    #pragma acc parallel loop copyin(key[0:n], x[0:n]) copy(count[0:64], total[0:1])
    for (int i = 0; i < n; i++) {
        #pragma acc atomic update
        count[key[i] & 63]++;
        #pragma acc atomic update
        total[0] += x[i];
    }
}"""
    n = 500_001
    key = RNG.integers(0, 1 << 20, n, dtype=np.int32)
    x = RNG.random(n)
    dc, dt = cp.zeros(64, dtype=np.int32), cp.zeros(1)
    launch(src, [{"n": n, "key": cp.asarray(key), "count": dc, "total": dt, "x": cp.asarray(x)}])
    ref = 2 * np.bincount(key & 63, minlength=64)
    ok = np.array_equal(dc.get(), ref) and abs(dt.get()[0] - 2 * x.sum()) < 1e-6 * n
    return ok, ""


def case_routines():
    import cupy as cp

    src = """
#pragma acc routine seq
static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

#pragma acc routine vector
static float row_max(int m, const float *row) {
    float best = -1e30f;
    #pragma acc loop vector reduction(max:best)
    for (int j = 0; j < m; j++) best = clampf(row[j], -0.5f, 0.5f) > best ? clampf(row[j], -0.5f, 0.5f) : best;
    return best;
}

void maxes(int n, int m, const float *a, float *out) {
    #pragma acc parallel loop gang copyin(a[0:n*m]) copyout(out[0:n])
    for (int i = 0; i < n; i++) out[i] = row_max(m, &a[i * m]);
}"""
    n, m = 777, 1001
    a = RNG.standard_normal((n, m)).astype(np.float32)
    dout = cp.zeros(n, dtype=np.float32)
    launch(src, [{"n": n, "m": m, "a": cp.asarray(a), "out": dout}])
    ref = np.clip(a, -0.5, 0.5).max(axis=1)
    return np.allclose(dout.get(), ref), ""


def case_math_native():
    import cupy as cp

    src = """
#include <math.h>
void f(int n, const double *x, double *y) {
    #pragma acc parallel loop copyin(x[0:n]) copyout(y[0:n])
    for (int i = 0; i < n; i++) y[i] = sqrt(fabs(x[i])) + floor(x[i]) + fmin(x[i], 0.25) + fma(x[i], 2.0, 1.0);
}"""
    n = 100_003
    x = RNG.standard_normal(n)
    dy = cp.zeros(n)
    launch(src, [{"n": n, "x": cp.asarray(x), "y": dy}])
    ref = np.sqrt(np.abs(x)) + np.floor(x) + np.minimum(x, 0.25) + (x * 2.0 + 1.0)
    return np.allclose(dy.get(), ref, rtol=1e-14, atol=1e-14), ""


def case_gang_shared():
    import cupy as cp

    src = """
void reverse_rows(int n, const float *a, float *b) {
    #pragma acc parallel loop gang vector_length(64) copyin(a[0:n*64]) copyout(b[0:n*64])
    for (int i = 0; i < n; i++) {
        float row[64];
        #pragma acc loop vector
        for (int j = 0; j < 64; j++) row[j] = a[i * 64 + j] * 2.0f;
        #pragma acc loop vector
        for (int j = 0; j < 64; j++) b[i * 64 + j] = row[63 - j];
    }
}"""
    n = 1001
    a = RNG.random((n, 64), dtype=np.float32)
    db = cp.zeros((n, 64), dtype=np.float32)
    launch(src, [{"n": n, "a": cp.asarray(a), "b": db}], block=(64, 1, 1))
    return np.array_equal(db.get(), (2 * a)[:, ::-1]), ""


def case_worker_shapes():
    import cupy as cp

    # Worker-partitioned vector reductions for lane counts below, at and above a warp.
    src = """
void row_sums(int n, int m, const double *a, double *out) {
    #pragma acc parallel loop gang copyin(a[0:n*m]) copyout(out[0:n])
    for (int b = 0; b < n; b += 4) {
        #pragma acc loop worker
        for (int i = b; i < b + 4; i++) {
            double s = 0.0;
            #pragma acc loop vector reduction(+:s)
            for (int j = 0; j < m; j++) s += a[i * m + j];
            if (i < n) out[i] = s;
        }
    }
}"""
    n, m = 400, 129
    a = RNG.random((n, m))
    bad = []
    for blk in [(8, 4, 1), (16, 2, 1), (32, 4, 1), (64, 2, 1), (128, 4, 1)]:
        dout = cp.zeros(n)
        launch(src, [{"n": n, "m": m, "a": cp.asarray(a), "out": dout}], block=blk)
        if not np.allclose(dout.get(), a.sum(axis=1)):
            bad.append(blk[:2])
    return not bad, f"wrong for blocks {bad}" if bad else "blocks 8x4 16x2 32x4 64x2 128x4"


def case_printf():
    src = """
#include <stdio.h>
void p(int n, int *y) {
    #pragma acc parallel loop copy(y[0:n])
    for (int i = 0; i < n; i++) { if (i == 3) printf("ptx_smoke printf: i=%d x=%.2f\\n", i, 1.5); y[i] = i; }
}"""
    import cupy as cp

    dy = cp.zeros(8, dtype=np.int32)
    launch(src, [{"n": 8, "y": dy}])
    cp.cuda.Device().synchronize()
    return np.array_equal(dy.get(), np.arange(8)), "(the kernel printed the line above twice)"


CASES = {
    "saxpy": case_saxpy,
    "jacobi": case_jacobi,
    "sum": case_sum,
    "matmul": case_matmul,
    "max_int": case_max_int,
    "worker_vector": case_worker_vector,
    "histogram": case_histogram,
    "routines": case_routines,
    "math_native": case_math_native,
    "gang_shared": case_gang_shared,
    "worker_shapes": case_worker_shapes,
    "printf": case_printf,
}


def main(argv):
    try:
        import cupy as cp

        dev = cp.cuda.Device()
        print(f"GPU: {cp.cuda.runtime.getDeviceProperties(dev.id)['name'].decode()}  (CuPy {cp.__version__})")
    except Exception as e:  # noqa: BLE001
        print(f"no usable CuPy/GPU: {e}")
        return 1
    names = argv or list(CASES)
    rows = []
    for name in names:
        t0 = time.perf_counter()
        try:
            ok, detail = CASES[name]()
            status = "PASS" if ok else "FAIL"
        except Exception as e:  # noqa: BLE001
            status, detail = "ERROR", f"{type(e).__name__}: {e}".splitlines()[0][:160]
            traceback.print_exc()
        dt = time.perf_counter() - t0
        print(f"{name:14s} {status:5s} {dt:6.2f}s  {detail}", flush=True)
        rows.append((name, status, detail))
    print("\n| case | status | detail |\n|---|---|---|")
    for name, status, detail in rows:
        print(f"| {name} | {status} | {detail} |")
    return 0 if all(s == "PASS" for _, s, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
