"""The PTX back end's knobs measured in one GPU sitting (issue 9's speed targets).

    python scripts/gpu/ptx_tune.py [--quick] [--only NAME,NAME] [--no-calls] [--no-sweep]

Needs an NVIDIA GPU, the accjit wheel (or PYTHONPATH=python with the
extension built), NumPy and CuPy. About 3-4 minutes (--quick: sizes /16,
under a minute).

Kernels (the sources of benchmarks/bench_nvidia.py): saxpy f32 2^28,
5-point Jacobi 8192² f32, sum f32 2^28 (double accumulator), naive matmul
2048² f32 (`loop seq` over k).

For each variant (a set of `ACCJIT_PTX_TUNE` knobs, `accjit_back_ptx::Tuning::apply`,
and/or `ACCJIT_NVIDIA_WAVES`):
  1. its PTX (a child process prints `acc.c(src).ptx()`: the driver reads the
     knobs once per process), registers per kernel from the loaded module;
  2. kernel-only time: the PTX loaded with CuPy and launched with the shape
     accjit's runtime would pick (block = the knob `block` or 256, grid = SMs
     x resident blocks x waves), CUDA events, best of several; every result
     checked against NumPy's (computed once on the host, compared on the
     device);
  3. the call from Python: a child process calls the kernels through accjit
     on CuPy arrays (used in place), best of several calls, results checked.
Then, for the default PTX only, a launch-shape sweep (block 128/256/512 x
waves 1/2/4, and one element per thread) and hand-written CUDA C twins
(NVRTC): a grid-stride saxpy, one thread per Jacobi point, one thread per
matmul output, beside CuPy's own saxpy and sum.

The table printed last: variant x kernel, GB/s (matmul TFLOP/s), kernel-only
and call ("k" / "c" columns); "WRONG" marks a result that does not match.
Files go to results/ptx_tune/ (the PTX of every variant, the log).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "results", "ptx_tune")

SOURCE = r"""
void saxpy(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop gang vector present(x[0:n], y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void jacobi(int m, const float *A, float *B) {
    #pragma acc parallel loop collapse(2) present(A[0:m*m], B[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
}
double sum(long n, const float *x) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s) present(x[0:n])
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}
void matmul(int n, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) present(P[0:n*n], Q[0:n*n], R[0:n*n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];
            R[i * n + j] = s;
        }
}
"""

# name -> (ACCJIT_PTX_TUNE, ACCJIT_NVIDIA_WAVES or None)
VARIANTS = {
    "default": ("", None),
    "fma=0 (exact)": ("fma=0", None),
    "old default (strided, 256, no fma)": ("unroll_map=strided,vector_loads=0,tile_block=0,tile_min_blocks=0,seq_vector_loads=0,fma=0", None),
    "stream+nc": ("stream_stores=1,nc_loads=1", None),
    "nc_loads": ("nc_loads=1", None),
    "unroll_factor=2": ("unroll_factor=2", None),
    "map=blocked": ("unroll_map=blocked", None),
    "unroll_collapsed x2": ("unroll_collapsed=1,unroll_factor=2", None),
    "tile_block=256": ("tile_block=0", None),
    "tile_block=64 (2x32)": ("tile_block=64", None),
    "mm no bounds": ("tile_min_blocks=0", None),
    "mm bounds 4": ("tile_min_blocks=4", None),
    "mm bounds 12": ("tile_min_blocks=12", None),
    "mm no v4": ("seq_vector_loads=0", None),
    "mm seq8": ("seq_unroll=8", None),
}
# Entry names and the parameters of each kernel, in the kernel ABI's order
# (one u64 slot each; the reduction target's device address last).
ENTRIES = {"saxpy": "saxpy_parallel_0", "jacobi": "jacobi_parallel_0", "sum": "sum_parallel_0", "matmul": "matmul_parallel_0"}
KERNELS = ["saxpy", "jacobi", "sum", "matmul"]

LOG = []


def say(*a):
    s = " ".join(str(x) for x in a)
    LOG.append(s)
    print(s, flush=True)


def child_env(**extra):
    env = dict(os.environ)
    pp = os.path.join(ROOT, "python")
    if os.path.isdir(pp) and "PYTHONPATH" not in env and not _accjit_importable():
        env["PYTHONPATH"] = pp
    for k in ("ACCJIT_PTX_TUNE", "ACCJIT_NVIDIA_WAVES"):
        env.pop(k, None)
    # No program images from the disk cache: its key holds the knobs but no
    # build id, so an image from another build of the back end could come back.
    env["ACCJIT_CACHE"] = "0"
    env.update({k: str(v) for k, v in extra.items() if v is not None and v != ""})
    return env


def _accjit_importable():
    try:
        import accjit  # noqa: F401
        return True
    except Exception:  # noqa: BLE001
        return False


def variant_env(tune, waves):
    return child_env(ACCJIT_PTX_TUNE=tune, ACCJIT_NVIDIA_WAVES=waves)


def ptx_of(tune, waves):
    code = ("import sys, accjit as acc\n"
            "print(acc.c(sys.stdin.read(), name='tune.c', device_type='nvidia').ptx())\n")
    cp = subprocess.run([sys.executable, "-c", code], input=SOURCE, capture_output=True, text=True, timeout=120,
                        env=variant_env(tune, waves))
    if cp.returncode != 0 or "ACCJIT_PTX_TUNE" in cp.stderr:
        raise RuntimeError((cp.stderr.strip() or "no output")[-400:])
    return cp.stdout


def block_of(tune, kname):
    """The threads per block the kernel suggests (`PtxKernel::vector`): `tile_block` (default 128;
    0: `block`) for the matmul (a tiled pair with an inner loop, unless tiles=0), else `block` (256)."""
    m = re.search(r"(?<![a-z_])block=(\d+)", tune)
    block = int(m.group(1)) if m else 256
    if kname == "matmul" and "tiles=0" not in tune:
        t = re.search(r"tile_block=(\d+)", tune)
        tb = int(t.group(1)) if t else 128
        return tb if tb > 0 else block
    return block


# --------------------------------------------------------------------------
# The call from Python, in a child process per variant (CuPy arrays in place).
CALL_CHILD = r"""
import json, sys, time
import numpy as np, cupy as cp, accjit as acc
n, m, mm, reps = (int(v) for v in sys.argv[1:5])
acc.set_device_type('nvidia')
lib = acc.c(sys.stdin.read(), name='tune.c', device_type='nvidia')
cp.random.seed(7)
x = cp.random.rand(n, dtype=cp.float32); y0 = cp.random.rand(n, dtype=cp.float32); y = y0.copy()
A = cp.random.rand(m, m, dtype=cp.float32); B = cp.zeros_like(A)
P = cp.random.rand(mm, mm, dtype=cp.float32); Q = cp.random.rand(mm, mm, dtype=cp.float32); R = cp.zeros_like(P)
out = {}
def best(f, k):
    f(); t = 1e9
    for _ in range(k):
        t0 = time.perf_counter(); f(); t = min(t, time.perf_counter() - t0)
    return t
ok = {}
lib.saxpy(n, 2.5, x, y); cp.cuda.Device().synchronize()
ok['saxpy'] = bool(cp.allclose(y, cp.float32(2.5) * x + y0, rtol=1e-5))
lib.jacobi(m, A, B)
ref = cp.zeros_like(A); ref[1:-1, 1:-1] = cp.float32(0.25) * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
ok['jacobi'] = bool(cp.allclose(B, ref, rtol=1e-5, atol=1e-6))
s = lib.sum(n, x)
ok['sum'] = abs(s - float(x.astype(cp.float64).sum())) <= 1e-6 * n
lib.matmul(mm, P, Q, R)
ok['matmul'] = bool(cp.allclose(R, P @ Q, rtol=1e-3, atol=1e-2))
out['saxpy'] = best(lambda: lib.saxpy(n, 2.5, x, y), reps)
out['jacobi'] = best(lambda: lib.jacobi(m, A, B), reps)
out['sum'] = best(lambda: lib.sum(n, x), reps)
out['matmul'] = best(lambda: lib.matmul(mm, P, Q, R), max(2, reps // 2))
print(json.dumps({'t': out, 'ok': ok}))
"""


def call_times(tune, waves, sizes, reps):
    n, m, mm = sizes
    try:
        env = variant_env(tune, waves)
        env["ACCJIT_CUDA_TRACE"] = "1"
        cp_ = subprocess.run([sys.executable, "-c", CALL_CHILD, str(n), str(m), str(mm), str(reps)], input=SOURCE,
                             capture_output=True, text=True, timeout=90, env=env)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if cp_.returncode != 0:
        return None, (cp_.stderr.strip().splitlines() or ["no output"])[-1][-300:]
    # The runtime's launch shapes (its trace): kernel -> "threads x resident per SM -> blocks".
    shapes = {}
    for line in cp_.stderr.splitlines():
        mt = re.search(r"kernel (\w+): (\d+) threads per block, (\d+) resident per SM, (\d+) blocks", line)
        if mt:
            shapes[mt.group(1).split("_parallel")[0]] = f"{mt.group(2)}t x{mt.group(3)}/SM {mt.group(4)}b"
    try:
        res = json.loads(cp_.stdout.strip().splitlines()[-1])
        res["shapes"] = shapes
        return res, ""
    except Exception as ex:  # noqa: BLE001
        return None, f"{ex}: {cp_.stdout[-200:]}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="sizes /16 (a smoke test of the script)")
    ap.add_argument("--only", default="", help="comma-separated variant names")
    ap.add_argument("--no-calls", action="store_true", help="kernel-only times only")
    ap.add_argument("--no-sweep", action="store_true", help="no launch-shape sweep of the default PTX")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--ptx-only", action="store_true", help="no GPU: write each variant's PTX and assemble it with ptxas -v")
    args = ap.parse_args()
    t_start = time.time()
    os.makedirs(OUT, exist_ok=True)
    if args.ptx_only:
        return ptx_only(args)
    import cupy as cp

    n, m, mm = ((1 << 24), 2048, 512) if args.quick else ((1 << 28), 8192, 2048)
    sizes = (n, m, mm)
    variants = {k: v for k, v in VARIANTS.items() if not args.only or k in args.only.split(",")}
    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    sms = props["multiProcessorCount"]
    say(f"== ptx_tune: {props['name'].decode() if isinstance(props['name'], bytes) else props['name']}, {sms} SMs; "
        f"saxpy/sum n={n}, jacobi {m}², matmul {mm}²; {len(variants)} variants")

    # Inputs, and the references from NumPy (once, on the host).
    rng = np.random.default_rng(int(time.time()))
    hx = rng.random(n, dtype=np.float32)
    hy0 = rng.random(n, dtype=np.float32)
    hA = rng.random((m, m), dtype=np.float32)
    hP = rng.random((mm, mm), dtype=np.float32)
    hQ = rng.random((mm, mm), dtype=np.float32)
    a = np.float32(2.5)
    ref_saxpy = cp.asarray(a * hx + hy0)
    ref_jac = np.zeros_like(hA)
    ref_jac[1:-1, 1:-1] = np.float32(0.25) * (hA[:-2, 1:-1] + hA[2:, 1:-1] + hA[1:-1, :-2] + hA[1:-1, 2:])
    ref_jac = cp.asarray(ref_jac)
    ref_sum = float(hx.sum(dtype=np.float64))
    ref_mm = cp.asarray(hP.astype(np.float64) @ hQ.astype(np.float64)).astype(cp.float32)
    x, y0, A, P, Q = cp.asarray(hx), cp.asarray(hy0), cp.asarray(hA), cp.asarray(hP), cp.asarray(hQ)
    y, B, R = cp.empty_like(y0), cp.zeros_like(A), cp.zeros_like(P)
    s = cp.zeros(1, dtype=cp.float64)
    del hx, hy0, hA
    u64 = np.uint64
    a_bits = u64(int(np.array([a], dtype=np.float32).view(np.uint32)[0]))
    params = {
        "saxpy": lambda: (u64(n), a_bits, u64(x.data.ptr), u64(y.data.ptr)),
        "jacobi": lambda: (u64(m), u64(A.data.ptr), u64(B.data.ptr)),
        "sum": lambda: (u64(n), u64(x.data.ptr), u64(s.data.ptr)),
        "matmul": lambda: (u64(mm), u64(P.data.ptr), u64(Q.data.ptr), u64(R.data.ptr)),
    }

    def reset(kname):
        if kname == "saxpy":
            cp.copyto(y, y0)
        elif kname == "jacobi":
            B.fill(0)
        elif kname == "sum":
            s.fill(0)
        else:
            R.fill(0)

    def correct(kname):
        if kname == "saxpy":
            return bool(cp.allclose(y, ref_saxpy, rtol=1e-5))
        if kname == "jacobi":
            return bool(cp.allclose(B, ref_jac, rtol=1e-5, atol=1e-6))
        if kname == "sum":
            return abs(float(s[0]) - ref_sum) <= 1e-6 * n
        return bool(cp.allclose(R, ref_mm, rtol=1e-3, atol=1e-2))

    def rate(kname, t):
        if t is None:
            return None
        if kname == "saxpy":
            return 12 * n / t / 1e9
        if kname == "jacobi":
            return 8 * m * m / t / 1e9
        if kname == "sum":
            return 4 * n / t / 1e9
        return 2 * mm ** 3 / t / 1e12

    ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()

    def time_kernel(f, reps):
        f()
        dev.synchronize()
        best = float("inf")
        for _ in range(reps):
            ev0.record()
            f()
            ev1.record()
            ev1.synchronize()
            best = min(best, cp.cuda.get_elapsed_time(ev0, ev1) / 1e3)
        return best

    def resident(k, threads, regs):
        try:
            return max(1, cp.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(k.kernel.ptr, threads, 0))
        except Exception:  # noqa: BLE001
            return max(1, min(2048 // threads, 65536 // max(1, ((regs + 7) // 8 * 8) * threads), 32))

    def run_kernel(k, kname, grid, threads, reps):
        """(seconds, correct) of one launch shape; the result checked on a fresh launch."""
        reset(kname)
        k((grid,), (threads,), params[kname]())
        dev.synchronize()
        ok = correct(kname)
        if kname == "sum":
            # Timed launches accumulate into s; only the time matters there.
            pass
        t = time_kernel(lambda: k((grid,), (threads,), params[kname]()), reps)
        return t, ok

    table = {}  # variant -> kernel -> dict(k=rate, c=rate, ok=bool, regs=int)
    texts = {}
    for vname, (tune, waves) in variants.items():
        row = table.setdefault(vname, {})
        try:
            text = ptx_of(tune, waves)
        except Exception as ex:  # noqa: BLE001
            say(f"  {vname}: no PTX: {ex}")
            continue
        texts[vname] = text
        path = os.path.join(OUT, re.sub(r"[^A-Za-z0-9]+", "_", vname).strip("_") + ".ptx")
        with open(path, "w") as f:
            f.write(text)
        same = next((o for o, t in texts.items() if t == text and o != vname), None)
        try:
            mod = cp.RawModule(path=path)
        except Exception as ex:  # noqa: BLE001
            say(f"  {vname}: the module does not load: {str(ex)[:200]}")
            continue
        for kname in KERNELS:
            threads = block_of(tune, kname)
            try:
                k = mod.get_function(ENTRIES[kname])
                regs = k.num_regs
                per_sm = resident(k, threads, regs)
                grid = sms * per_sm * (waves or 1)
                t, ok = run_kernel(k, kname, grid, threads, args.reps if kname != "matmul" else max(3, args.reps // 2))
                row[kname] = {"k": rate(kname, t), "ok": ok, "regs": regs, "shape": f"{threads}x{grid}"}
            except Exception as ex:  # noqa: BLE001
                row[kname] = {"k": None, "ok": False, "err": str(ex)[:160]}
        say(f"  {vname:<28} kernel-only " + "  ".join(
            f"{kn} {row[kn]['k']:.0f}" if row.get(kn, {}).get("k") and kn != "matmul" else
            (f"{kn} {row[kn]['k']:.2f}" if row.get(kn, {}).get("k") else f"{kn} error")
            for kn in KERNELS) + (f"   (PTX as {same})" if same else ""))
        for kn in KERNELS:
            if row.get(kn, {}).get("err"):
                say(f"      {kn}: {row[kn]['err']}")
    # The call from Python, per variant.
    if not args.no_calls:
        for vname, (tune, waves) in variants.items():
            if vname not in texts:
                continue
            res, err = call_times(tune, waves, sizes, args.reps)
            row = table[vname]
            if res is None:
                say(f"  {vname}: call from Python failed: {err}")
                continue
            for kn in KERNELS:
                d = row.setdefault(kn, {})
                d["c"] = rate(kn, res["t"][kn])
                d["cok"] = res["ok"][kn]
            say(f"  {vname:<28} call        " + "  ".join(f"{kn} {row[kn]['c']:.2f}" if kn == "matmul" else f"{kn} {row[kn]['c']:.0f}" for kn in KERNELS)
                + "   runtime shapes: " + ", ".join(f"{kn} {res['shapes'].get(kn, '?')}" for kn in KERNELS))
            for kn in KERNELS:
                row[kn]["rshape"] = res["shapes"].get(kn, "?")
            if time.time() - t_start > 300:
                say("  (time budget: the other variants' calls are skipped)")
                break

    # Launch shapes of the default PTX, and hand-written twins.
    extra = []  # (what, kernel, rate, note)
    if not args.no_sweep and "default" in texts:
        mod = cp.RawModule(path=os.path.join(OUT, "default.ptx"))
        for kname in KERNELS:
            k = mod.get_function(ENTRIES[kname])
            for threads in (128, 256, 512):
                if threads > k.max_threads_per_block:
                    continue  # launch bounds (.maxntid) refuse bigger blocks
                per_sm = resident(k, threads, k.num_regs)
                for waves in (1, 2, 4, 0):
                    if waves == 0:
                        if kname not in ("saxpy", "sum"):
                            continue
                        grid = (n + threads - 1) // threads  # one element per thread
                        label = f"default PTX, {threads} x one element per thread"
                    else:
                        grid = sms * per_sm * waves
                        label = f"default PTX, {threads} x {waves} wave(s)"
                    t, ok = run_kernel(k, kname, grid, threads, max(3, args.reps // 2))
                    extra.append((label, kname, rate(kname, t), "" if ok else "WRONG"))
    try:
        twin = cp.RawModule(code=TWINS)
        ks = {name: twin.get_function(name) for name in ("saxpy_gs", "saxpy_one", "jacobi_pt", "matmul_pt")}
        for threads in (256, 512):
            per_sm = resident(ks["saxpy_gs"], threads, ks["saxpy_gs"].num_regs)
            for waves in (1, 2, 4):
                grid = sms * per_sm * waves
                cp.copyto(y, y0)
                ks["saxpy_gs"]((grid,), (threads,), (np.int64(n), a, x, y))
                ok = correct("saxpy")
                t = time_kernel(lambda: ks["saxpy_gs"]((grid,), (threads,), (np.int64(n), a, x, y)), args.reps)
                extra.append((f"CUDA C grid-stride saxpy {threads} x {waves} wave(s)", "saxpy", rate("saxpy", t), "" if ok else "WRONG"))
            grid = (n + threads - 1) // threads
            cp.copyto(y, y0)
            ks["saxpy_one"]((grid,), (threads,), (np.int64(n), a, x, y))
            ok = correct("saxpy")
            t = time_kernel(lambda: ks["saxpy_one"]((grid,), (threads,), (np.int64(n), a, x, y)), args.reps)
            extra.append((f"CUDA C saxpy one element per thread, {threads}", "saxpy", rate("saxpy", t), "" if ok else "WRONG"))
        for bx, by in ((128, 1), (32, 8), (32, 4), (64, 4)):
            B.fill(0)
            grid = ((m - 2 + bx - 1) // bx, (m - 2 + by - 1) // by)
            ks["jacobi_pt"](grid, (bx, by), (np.int32(m), A, B))
            ok = correct("jacobi")
            t = time_kernel(lambda: ks["jacobi_pt"](grid, (bx, by), (np.int32(m), A, B)), args.reps)
            extra.append((f"CUDA C Jacobi one thread per point {bx}x{by}", "jacobi", rate("jacobi", t), "" if ok else "WRONG"))
        for bx, by in ((128, 1), (32, 8), (16, 16), (32, 4), (64, 4)):
            R.fill(0)
            grid = ((mm + bx - 1) // bx, (mm + by - 1) // by)
            ks["matmul_pt"](grid, (bx, by), (np.int32(mm), P, Q, R))
            ok = correct("matmul")
            t = time_kernel(lambda: ks["matmul_pt"](grid, (bx, by), (np.int32(mm), P, Q, R)), max(3, args.reps // 2))
            extra.append((f"CUDA C matmul one thread per output {bx}x{by}", "matmul", rate("matmul", t), "" if ok else "WRONG"))
        ek = cp.ElementwiseKernel("float32 a, float32 x", "float32 y", "y = a * x + y", "tune_saxpy")
        t = time_kernel(lambda: ek(a, x, y), args.reps)
        extra.append(("CuPy ElementwiseKernel saxpy", "saxpy", rate("saxpy", t), ""))
        t = time_kernel(lambda: x.sum(), args.reps)
        extra.append(("CuPy x.sum()", "sum", rate("sum", t), ""))
    except Exception as ex:  # noqa: BLE001
        say(f"  twins failed: {str(ex)[:300]}")

    # The table.
    say("")
    say(f"== ptx_tune summary ({time.time() - t_start:.0f} s; GB/s, matmul TFLOP/s; k: kernel-only, CUDA events,"
        " runtime's launch shape; c: call from Python)")
    hdr = f"{'variant':<28}" + "".join(f" {kn + ' k':>9} {kn + ' c':>9}" for kn in KERNELS) + "  regs s/j/S/m"
    say(hdr)

    def fmt(kn, v):
        if v is None:
            return f"{'—':>9}"
        return f"{v:9.2f}" if kn == "matmul" else f"{v:9.0f}"
    for vname, row in table.items():
        cells, bad = "", []
        for kn in KERNELS:
            d = row.get(kn, {})
            cells += f" {fmt(kn, d.get('k'))} {fmt(kn, d.get('c'))}"
            if d and (not d.get("ok", True) or d.get("cok") is False):
                bad.append(kn)
        regs = "/".join(str(row.get(kn, {}).get("regs", "?")) for kn in KERNELS)
        say(f"{vname:<28}{cells}  {regs}" + (f"  WRONG: {','.join(bad)}" if bad else "")
            + f"  matmul k {row.get('matmul', {}).get('shape', '?')} / runtime {row.get('matmul', {}).get('rshape', '?')}")
    if extra:
        say("")
        say(f"{'launch shape / twin':<58} {'kernel':<7} {'rate':>9}")
        for what, kn, r, note in extra:
            say(f"{what:<58} {kn:<7} {fmt(kn, r)}  {note}")
    say("")
    say("targets: saxpy ≥ 2650 GB/s, jacobi ≥ 2000 GB/s, sum ≥ 2600 GB/s, matmul ≥ 6.9 TFLOP/s (call from Python)")
    with open(os.path.join(OUT, "ptx_tune.log"), "w") as f:
        f.write("\n".join(LOG) + "\n")


def ptx_only(args):
    """Each variant's PTX, assembled by ptxas (PTXAS or on PATH) for sm_90: registers and spills per kernel."""
    import shutil
    ptxas = os.environ.get("PTXAS") or shutil.which("ptxas") or "/opt/nvcc/nvidia/cuda_nvcc/bin/ptxas"
    seen = {}
    for vname, (tune, waves) in VARIANTS.items():
        if args.only and vname not in args.only.split(","):
            continue
        text = ptx_of(tune, waves)
        path = os.path.join(OUT, re.sub(r"[^A-Za-z0-9]+", "_", vname).strip("_") + ".ptx")
        with open(path, "w") as f:
            f.write(text)
        same = seen.setdefault(text, vname)
        out = subprocess.run([ptxas, "-arch=sm_90", "-v", path, "-o", os.devnull], capture_output=True, text=True)
        regs, name = {}, None
        for line in out.stderr.splitlines():
            mname = re.search(r"Compiling entry function '(\w+)'", line)
            if mname:
                name = mname.group(1)
            mregs = re.search(r"Used (\d+) registers", line)
            if mregs and name:
                regs[name] = mregs.group(1)
            if "spill" in line and "0 bytes spill stores, 0 bytes spill loads" not in line and name:
                regs[name] = regs.get(name, "") + " SPILLS"
        status = "ok" if out.returncode == 0 else "PTXAS FAILED: " + out.stderr.strip()[-200:]
        say(f"{vname:<28} {status}  regs " + " ".join(f"{k}={regs.get(ENTRIES[k], '?')}" for k in KERNELS)
            + ("" if same == vname else f"  (same PTX as {same})"))


TWINS = r"""
extern "C" __global__ void saxpy_gs(long n, float a, const float *x, float *y) {
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void saxpy_one(long n, float a, const float *x, float *y) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void jacobi_pt(int m, const float *A, float *B) {
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1, i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i < m - 1 && j < m - 1)
        B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
}
extern "C" __global__ void matmul_pt(int n, const float *P, const float *Q, float *R) {
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) { float s = 0.0f; for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j]; R[i * n + j] = s; }
}
"""


if __name__ == "__main__":
    main()
