"""GPU checks of the issue 9 leftovers on the PTX back end (lead's sittings).

    python scripts/gpu/ptx_check.py [--quick] [--skip assert,matmul,launch,exit]

Needs an NVIDIA GPU, the accjit wheel (or PYTHONPATH=python with the
extension built), NumPy and CuPy. Every part runs under a time limit; the
whole script takes about 3-4 minutes. Files go to results/ptx_check/.

1. assert: a failed `assert` in an nvidia kernel (`accjit run`, then
   tests/test_nvidia_program_end.py) must print
   "FILE:LINE: Assertion `EXPR' failed." with the real texts; under
   ACCJIT_CUDA_TRACE=1 the runtime also prints the record's addresses, the
   module symbol holding each and what a device read gives (to see why the
   device read gave "?").
2. matmul 2048^2 float32, `loop seq` over k (benchmarks/bench_nvidia.py's
   source): timed through accjit itself (source variants; back-end and
   launch knobs — ACCJIT_PTX_SEQ_UNROLL, ACCJIT_PTX_FMA,
   ACCJIT_NVIDIA_WAVES — one child process per setting, with the launch
   shape the runtime picked), and our PTX loaded with CuPy under launch
   shapes (block sizes x waves of resident blocks, or one block per tile),
   beside the bench's CUDA C twin (NVRTC) one thread per output and in our
   tile mapping. Each result is checked against cuBLAS (P @ Q) or NumPy.
3. launch latency of a tiny kernel on present data from Python (sync,
   async(1) batches, the call alone) beside CuPy's RawKernel.
4. tests/conformance/fortran/050 (no construct: it ends while the device
   is still opening) run 20 times on nvidia: it crashed once at sitting E.
A short table is printed last.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "results", "ptx_check")
os.makedirs(OUT, exist_ok=True)
ROWS = []  # (part, what, value, note)


def row(part, what, value, note=""):
    ROWS.append((part, what, value, note))
    print(f"  {part:<8} {what:<52} {value:>14}  {note}", flush=True)


def child_env(**extra):
    env = dict(os.environ)
    pp = os.path.join(ROOT, "python")
    if os.path.isdir(pp) and "PYTHONPATH" not in env:
        env["PYTHONPATH"] = pp
    env.update({k: str(v) for k, v in extra.items()})
    return env


# --------------------------------------------------------------------------
# 1. assert
ASSERT_SRC = r"""#include <assert.h>
#include <stdio.h>
int main(void) {
    int a[4] = {1, 2, 3, 4};
    #pragma acc serial copy(a)
    {
        a[1] += 1;
        assert(a[0] * 2 < a[1] - 10);
        a[0] += 1;
    }
    printf("not reached\n");
    return 0;
}
"""


def part_assert():
    print("== 1. assert in an nvidia kernel", flush=True)
    d = tempfile.mkdtemp()
    path = os.path.join(d, "assert_dev.c")
    with open(path, "w") as f:
        f.write(ASSERT_SRC)
    line = ASSERT_SRC.splitlines().index("        assert(a[0] * 2 < a[1] - 10);") + 1
    want = f"assert_dev.c:{line}: Assertion `a[0] * 2 < a[1] - 10' failed."
    try:
        cp = subprocess.run([sys.executable, "-m", "accjit", "run", path], capture_output=True, text=True, timeout=120,
                            env=child_env(ACC_DEVICE_TYPE="nvidia", ACCJIT_CUDA_TRACE=1))
        err = cp.stderr
    except subprocess.TimeoutExpired:
        err, cp = "TIMEOUT", None
    with open(os.path.join(OUT, "assert_run.txt"), "w") as f:
        f.write(err)
    for l in err.splitlines():
        if "assert record" in l or "Assertion" in l:
            print("   ", l)
    ok = cp is not None and want in err and cp.returncode != 0 and "not reached" not in cp.stdout
    row("assert", "accjit run: message", "ok" if ok else "WRONG", "" if ok else f"want {want!r}; rc {cp.returncode if cp else None}")
    try:
        t = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfE", "-p", "no:cacheprovider", "tests/test_nvidia_program_end.py"],
                           cwd=ROOT, capture_output=True, text=True, timeout=240, env=child_env(ACC_DEVICE_TYPE="nvidia"))
        last = (t.stdout.strip().splitlines() or ["?"])[-1]
        with open(os.path.join(OUT, "assert_pytest.txt"), "w") as f:
            f.write(t.stdout + t.stderr)
    except subprocess.TimeoutExpired:
        last = "TIMEOUT"
    row("assert", "tests/test_nvidia_program_end.py", last[:40])


# --------------------------------------------------------------------------
# 2. matmul
MM_SRC = r"""
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
# Source variants timed through accjit itself (default knobs).
MM_SOURCES = {
    "bench (gang collapse(2))": MM_SRC,
    "collapse(2) vector_length(128)": MM_SRC.replace("present(P[0:n*n]", "vector_length(128) present(P[0:n*n]"),
    "collapse(2) vector_length(512)": MM_SRC.replace("present(P[0:n*n]", "vector_length(512) present(P[0:n*n]"),
}
# Back-end knobs: each a child process that prints the PTX (the driver reads them once).
KNOBS = {
    "default": {},
    "SEQ_UNROLL=1 (before)": {"ACCJIT_PTX_SEQ_UNROLL": 1},
    "SEQ_UNROLL=8": {"ACCJIT_PTX_SEQ_UNROLL": 8},
    "FMA": {"ACCJIT_PTX_FMA": 1},
    "NVIDIA_WAVES=2": {"ACCJIT_NVIDIA_WAVES": 2},
    "NVIDIA_WAVES=3": {"ACCJIT_NVIDIA_WAVES": 3},
    "NVIDIA_WAVES=4": {"ACCJIT_NVIDIA_WAVES": 4},
    "NVIDIA_WAVES=8": {"ACCJIT_NVIDIA_WAVES": 8},
}
TWIN = r"""
extern "C" __global__ void twin(int n, const float *P, const float *Q, float *R) {
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < n) { float s = 0.0f; PRAGMA for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j]; R[i * n + j] = s; }
}
// our mapping: tiles of (blockDim/32) rows x 32 columns handed out grid-stride
extern "C" __global__ void tiled(int n, const float *P, const float *Q, float *R) {
    int rows = blockDim.x / 32, lane = threadIdx.x % 32, row = threadIdx.x / 32;
    long tiles = (long)((n + rows - 1) / rows) * ((n + 31) / 32);
    for (long t = blockIdx.x; t < tiles; t += gridDim.x) {
        int i = (int)(t / ((n + 31) / 32)) * rows + row, j = (int)(t % ((n + 31) / 32)) * 32 + lane;
        if (i < n && j < n) { float s = 0.0f; PRAGMA for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j]; R[i * n + j] = s; }
    }
}
"""


def ptx_of(src, env):
    code = ("import sys, accjit as acc\n"
            "src = sys.stdin.read()\n"
            "print(acc.c(src, name='mm.c', device_type='nvidia').ptx())\n")
    cp = subprocess.run([sys.executable, "-c", code], input=src, capture_output=True, text=True, timeout=120, env=child_env(**env))
    if cp.returncode != 0:
        raise RuntimeError(cp.stderr.strip()[-400:])
    return cp.stdout


def fma_edit(ptx):
    """mul.rn.f32 a, b, c; add.rn.f32 d, e, a (or d, a, e) -> fma.rn.f32 d, b, c, e (a used once)."""
    pat = re.compile(r"mul\.rn\.f32 (%f\d+), (%f\d+), (%f\d+);\n(\s*)add\.rn\.f32 (%f\d+), (%f\d+), (%f\d+);")

    def sub(m):
        a, b, c, ws, d, x, y = m.groups()
        if ptx.count(a + ",") + ptx.count(a + ";") + ptx.count(a + "]") != 2 or a not in (x, y):
            return m.group(0)
        e = y if x == a else x
        return f"fma.rn.f32 {d}, {b}, {c}, {e};"
    return pat.sub(sub, ptx)


def maxnreg_edit(ptx, n):
    return re.sub(r"(\.visible \.entry [^(]+\([^)]*\))\n\{", lambda m: f"{m.group(1)}\n.maxnreg {n}\n{{", ptx)


def nc_edit(ptx):
    return ptx.replace("ld.global.f32", "ld.global.nc.f32")


def part_matmul(quick):
    print("== 2. naive matmul 2048^2 float32", flush=True)
    import cupy as cp
    import accjit as acc
    acc.set_device_type("nvidia")
    n = 2048
    rng = np.random.default_rng(12)
    P = rng.random((n, n), dtype=np.float32)
    Q = rng.random((n, n), dtype=np.float32)
    cP, cQ = cp.asarray(P), cp.asarray(Q)
    ref = cP @ cQ
    cp.cuda.Device().synchronize()
    sms = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
    flop = 2.0 * n ** 3
    reps = 3 if quick else 8

    def check(cR):
        return bool(cp.allclose(cR, ref, rtol=1e-3, atol=1e-2))

    def time_gpu(f):
        f()
        cp.cuda.Device().synchronize()
        s, e = cp.cuda.Event(), cp.cuda.Event()
        best = float("inf")
        for _ in range(reps):
            s.record()
            f()
            e.record()
            e.synchronize()
            best = min(best, cp.cuda.get_elapsed_time(s, e) / 1e3)
        return best

    def tflops(t):
        return f"{flop / t / 1e12:.2f} TF/s"

    # (a) through accjit (the runtime's own launch), source variants
    R = np.zeros((n, n), dtype=np.float32)
    for name, src in MM_SOURCES.items():
        try:
            lib = acc.c(src, name="mm.c", device_type="nvidia")
            with acc.data(copyin=[P, Q], create=[R]):
                lib.matmul(n, P, Q, R)
                best = float("inf")
                for _ in range(reps):
                    t0 = time.perf_counter()
                    lib.matmul(n, P, Q, R)
                    best = min(best, time.perf_counter() - t0)
                acc.update_self(R)
            ok = check(cp.asarray(R))
            row("matmul", f"accjit: {name}", tflops(best), "" if ok else "WRONG RESULT")
        except Exception as ex:  # noqa: BLE001
            row("matmul", f"accjit: {name}", "error", str(ex)[:120])

    # (a') through accjit in a child process per back-end knob setting
    for name, env in KNOBS.items():
        code = ("import sys, time, numpy as np, accjit as acc\n"
                "acc.set_device_type('nvidia')\n"
                f"n, reps = {n}, {reps}\n"
                "lib = acc.c(sys.stdin.read(), name='mm.c', device_type='nvidia')\n"
                "rng = np.random.default_rng(3)\n"
                "P = rng.random((n, n), dtype=np.float32); Q = rng.random((n, n), dtype=np.float32); R = np.zeros_like(P)\n"
                "with acc.data(copyin=[P, Q], copyout=[R]):\n"
                "    lib.matmul(n, P, Q, R)\n"
                "    best = 1e9\n"
                "    for _ in range(reps):\n"
                "        t0 = time.perf_counter(); lib.matmul(n, P, Q, R); best = min(best, time.perf_counter() - t0)\n"
                "ref = P.astype(np.float64) @ Q.astype(np.float64)\n"
                "print('OK' if np.allclose(R, ref, rtol=1e-3, atol=1e-2) else 'WRONG', best)\n")
        try:
            c = subprocess.run([sys.executable, "-c", code], input=MM_SRC, capture_output=True, text=True, timeout=120, env=child_env(ACCJIT_CUDA_TRACE=1, **env))
            for l in c.stderr.splitlines():
                if "blocks fill the device" in l:
                    print("   ", name, ":", l.strip())
            last = (c.stdout.strip().splitlines() or ["? 0"])[-1].split()
            if c.returncode != 0 or len(last) != 2:
                row("matmul", f"accjit knobs {name}", "error", c.stderr.strip()[-160:])
            else:
                row("matmul", f"accjit knobs {name}", tflops(float(last[1])), "" if last[0] == "OK" else "WRONG RESULT")
        except subprocess.TimeoutExpired:
            row("matmul", f"accjit knobs {name}", "TIMEOUT")

    # (b) our PTX under knobs and text edits, loaded with CuPy
    texts = {}
    for name, env in KNOBS.items():
        try:
            texts[name] = ptx_of(MM_SRC, env)
        except Exception as ex:  # noqa: BLE001
            row("matmul", f"ptx {name}", "error", str(ex)[:120])
    texts = {k: v for k, v in texts.items() if k in ("default", "SEQ_UNROLL=1 (before)")}
    base = texts.get("default")
    if base:
        texts["edit: .maxnreg 32"] = maxnreg_edit(base, 32)
    seen = {}
    cR = cp.zeros((n, n), dtype=cp.float32)
    for name, text in texts.items():
        if text in seen:
            row("matmul", f"ptx {name}", "(same PTX)", f"as {seen[text]}")
            continue
        seen[text] = name
        fn = os.path.join(OUT, "mm_" + re.sub(r"[^A-Za-z0-9]+", "_", name) + ".ptx")
        with open(fn, "w") as f:
            f.write(text)
        try:
            mod = cp.RawModule(path=fn)
            k = mod.get_function("matmul_parallel_0")
            regs = k.num_regs
            sweep = name == "default" and not quick
            # (threads, waves of resident blocks; 0: one block per tile of threads/32 rows x 32 columns)
            shapes = [(t, w) for t in (128, 256, 512) for w in (1, 2, 3, 4, 6, 8, 0)] if sweep else [(256, 1), (128, 1)]
            for threads, waves in shapes:
                if threads > k.max_threads_per_block:
                    continue
                per_sm = max(1, min(2048 // threads, 65536 // max(1, ((regs + 7) // 8 * 8) * threads), 32))
                grid = sms * per_sm * waves if waves else ((n + threads // 32 - 1) // (threads // 32)) * ((n + 31) // 32)
                cR.fill(0)
                t = time_gpu(lambda: k((grid,), (threads,), (np.uint64(n), cP, cQ, cR)))
                ok = check(cR)
                row("matmul", f"ptx {name}: {threads}x{grid}", tflops(t), f"{regs} regs" + ("" if ok else " WRONG RESULT"))
        except Exception as ex:  # noqa: BLE001
            row("matmul", f"ptx {name}", "error", str(ex)[:160])

    # (c) CUDA C twins (NVRTC)
    twins = {
        "twin": ("", []),
    }
    for name, (pragma, opts) in twins.items():
        try:
            src = TWIN.replace("PRAGMA", pragma)
            mod = cp.RawModule(code=src, options=tuple(opts))
            k = mod.get_function("twin")
            for threads in ([128] if quick else [128, 256]):
                cR.fill(0)
                t = time_gpu(lambda: k(((n + threads - 1) // threads, n), (threads,), (np.int32(n), cP, cQ, cR)))
                row("matmul", f"cuda {name}: block {threads}", tflops(t), f"{k.num_regs} regs" + ("" if check(cR) else " WRONG RESULT"))
            kt = mod.get_function("tiled")
            for threads in [256]:
                per_sm = max(1, min(2048 // threads, 65536 // max(1, ((kt.num_regs + 7) // 8 * 8) * threads)))
                grid = sms * per_sm
                cR.fill(0)
                t = time_gpu(lambda: kt((grid,), (threads,), (np.int32(n), cP, cQ, cR)))
                row("matmul", f"cuda {name} our tiles: {threads}x{grid}", tflops(t), f"{kt.num_regs} regs" + ("" if check(cR) else " WRONG RESULT"))
            if name == "twin":
                from cupy.cuda import compiler
                ptx = compiler.compile_using_nvrtc(src, options=("-arch=compute_90",)) if hasattr(compiler, "compile_using_nvrtc") else ""
                if isinstance(ptx, bytes):
                    ptx = ptx.decode()
                with open(os.path.join(OUT, "twin_nvrtc.ptx"), "w") as f:
                    f.write(str(ptx))
        except Exception as ex:  # noqa: BLE001
            row("matmul", f"cuda {name}", "error", str(ex)[:160])
    t = time_gpu(lambda: cP @ cQ)
    row("matmul", "cuBLAS (P @ Q)", tflops(t))


# --------------------------------------------------------------------------
# 4. a program with no construct ends while the device is opening
def part_exit(quick):
    print("== 4. programs that end while the device opens (fortran/050 crashed at sitting E)", flush=True)
    prog = os.path.join(ROOT, "tests", "conformance", "fortran", "050_maxloc_minloc.f90")
    runs = 5 if quick else 20
    bad = []
    for _ in range(runs):
        try:
            c = subprocess.run([sys.executable, "-m", "accjit", "run", prog], capture_output=True, text=True, timeout=60,
                               env=child_env(ACC_DEVICE_TYPE="nvidia"))
            if c.returncode != 0:
                bad.append(str(c.returncode))
        except subprocess.TimeoutExpired:
            bad.append("timeout")
    row("exit", f"fortran/050 on nvidia, {runs} runs", f"{runs - len(bad)} ok", ("failed: " + " ".join(bad)) if bad else "")


# --------------------------------------------------------------------------
# 3. launch latency
def part_launch(quick):
    print("== 3. launch latency", flush=True)
    import accjit as acc
    acc.set_device_type("nvidia")
    lib = acc.c(r'''
void tiny(int n, float *a) {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1.0f;
}
void tiny_async(int n, float *a) {
    #pragma acc parallel loop present(a[0:n]) async(1)
    for (int i = 0; i < n; i++) a[i] += 1.0f;
}
void nothing(int n, float *a) { }
''', name="launch.c")
    a = np.random.default_rng().random(16, dtype=np.float32)
    a0 = a.copy()
    B, N, R = 500, (1000 if quick else 3000), (10 if quick else 30)
    with acc.data(copy=[a]):
        for _ in range(200):
            lib.tiny(16, a)
        ts = []
        for _ in range(N):
            t0 = time.perf_counter()
            lib.tiny(16, a)
            ts.append(time.perf_counter() - t0)
        sync = float(np.median(ts))
        for _ in range(200):
            lib.tiny_async(16, a)
        acc.wait(1)
        ts = []
        for _ in range(R):
            t0 = time.perf_counter()
            for _ in range(B):
                lib.tiny_async(16, a)
            acc.wait(1)
            ts.append((time.perf_counter() - t0) / B)
        asyn = float(np.median(ts))
        ts = []
        for _ in range(N):
            t0 = time.perf_counter()
            lib.nothing(16, a)
            ts.append(time.perf_counter() - t0)
        call = float(np.median(ts))
    ok = np.allclose(a, a0 + N + 200 + 200 + R * B)
    row("launch", "accjit sync (call to return), µs", f"{sync * 1e6:.2f}", "" if ok else "WRONG RESULT")
    row("launch", "accjit async(1), per launch in batches of 500, µs", f"{asyn * 1e6:.2f}")
    row("launch", "accjit call of an empty C function, µs", f"{call * 1e6:.2f}")
    try:
        import cupy as cp
        ca = cp.asarray(a)
        k = cp.RawKernel(r'extern "C" __global__ void t(int n, float *a){int i=threadIdx.x; if(i<n) a[i]+=1.0f;}', "t")
        for _ in range(200):
            k((1,), (32,), (np.int32(16), ca))
        cp.cuda.Device().synchronize()
        ts = []
        for _ in range(N):
            t0 = time.perf_counter()
            k((1,), (32,), (np.int32(16), ca))
            cp.cuda.Device().synchronize()
            ts.append(time.perf_counter() - t0)
        row("launch", "CuPy RawKernel + sync, µs", f"{float(np.median(ts)) * 1e6:.2f}")
        ts = []
        for _ in range(R):
            t0 = time.perf_counter()
            for _ in range(B):
                k((1,), (32,), (np.int32(16), ca))
            cp.cuda.Device().synchronize()
            ts.append((time.perf_counter() - t0) / B)
        row("launch", "CuPy RawKernel, no sync, per launch, µs", f"{float(np.median(ts)) * 1e6:.2f}")
    except Exception as ex:  # noqa: BLE001
        row("launch", "CuPy", "error", str(ex)[:120])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip", default="")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    t0 = time.time()
    for name, f in (("assert", lambda: part_assert()), ("matmul", lambda: part_matmul(args.quick)), ("launch", lambda: part_launch(args.quick)),
                    ("exit", lambda: part_exit(args.quick))):
        if name in skip:
            continue
        try:
            f()
        except Exception as ex:  # noqa: BLE001
            row(name, "part failed", "error", str(ex)[:200])
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"\n== ptx_check summary (tree {git or '?'}, {time.time() - t0:.0f} s)")
    for part, what, value, note in ROWS:
        print(f"{part:<8} {what:<56} {value:>14}  {note}")


if __name__ == "__main__":
    main()
