#!/usr/bin/env bash
# GPU checks of the issue 9 leftovers (launch overhead, program ends in
# kernels, the disk cache's size limit). Run on a machine with an NVIDIA
# GPU, the accjit wheel installed (or PYTHONPATH set):
#
#     bash scripts/gpu/gpu9_check.sh [PYTHON]
#
# 1. launch of a tiny kernel on present data from Python, median µs:
#    synchronous (call to return), asynchronous (`async(1)`, batches of 500
#    launches then one acc.wait(1), per launch), the Python → C call alone,
#    beside CuPy's RawKernel with a sync and without;
# 2. exit()/abort()/assert in kernels (tests/test_nvidia_program_end.py,
#    the one that could hang runs in a time-limited child) and `declare
#    link` globals read and written by routines (tests/test_nvidia_declare_link.py)
#    and arrays a worker's lanes share (tests/test_nvidia_worker_shared.py);
# 3. ACCJIT_CACHE_MAX_MB=1 with a fresh cache directory: 300 distinct
#    kernels compiled and run in one process leave at most 1 MiB of cubins,
#    and the last one loads from the disk cache in a fresh process;
# then a short table. Output also in results/gpu9_*.txt.
set -u
cd "$(dirname "$0")/../.."
PY=${1:-python3}
OUT=results
mkdir -p "$OUT"

echo "== 1. launch latency"
timeout 300 "$PY" - <<'PY' 2>&1 | tee "$OUT/gpu9_launch.txt"
import time, numpy as np, accjit as acc
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
B = 500
with acc.data(copy=[a]):
    for _ in range(200):
        lib.tiny(16, a)
    ts = []
    for _ in range(3000):
        t0 = time.perf_counter(); lib.tiny(16, a); ts.append(time.perf_counter() - t0)
    sync = float(np.median(ts))
    for _ in range(200):
        lib.tiny_async(16, a)
    acc.wait(1)
    ts = []
    for _ in range(30):
        t0 = time.perf_counter()
        for _ in range(B):
            lib.tiny_async(16, a)
        acc.wait(1)
        ts.append((time.perf_counter() - t0) / B)
    asyn = float(np.median(ts))
    ts = []
    for _ in range(3000):
        t0 = time.perf_counter(); lib.nothing(16, a); ts.append(time.perf_counter() - t0)
    call = float(np.median(ts))
ok = np.allclose(a, a0 + 3200 + 200 + 30 * B)
cp_sync = cp_async = float("nan")
try:
    import cupy as cp
    ca = cp.asarray(a)
    k = cp.RawKernel(r'extern "C" __global__ void t(int n, float *a){int i=threadIdx.x; if(i<n) a[i]+=1.0f;}', "t")
    for _ in range(200):
        k((1,), (32,), (np.int32(16), ca))
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(3000):
        t0 = time.perf_counter(); k((1,), (32,), (np.int32(16), ca)); cp.cuda.Device().synchronize(); ts.append(time.perf_counter() - t0)
    cp_sync = float(np.median(ts))
    ts = []
    for _ in range(30):
        t0 = time.perf_counter()
        for _ in range(B):
            k((1,), (32,), (np.int32(16), ca))
        cp.cuda.Device().synchronize()
        ts.append((time.perf_counter() - t0) / B)
    cp_async = float(np.median(ts))
except Exception as e:  # noqa: BLE001
    print("CuPy not available:", e)
print(f"LAUNCH sync {sync*1e6:.2f} async {asyn*1e6:.2f} call {call*1e6:.2f} cupy_sync {cp_sync*1e6:.2f} cupy_async {cp_async*1e6:.2f} results {'ok' if ok else 'WRONG'}")
PY

echo "== 2. exit/abort/assert in kernels; declare link globals shared by routines and kernels"
ACC_DEVICE_TYPE=nvidia timeout 600 "$PY" -m pytest -q -rfE tests/test_nvidia_program_end.py tests/test_nvidia_declare_link.py tests/test_nvidia_worker_shared.py -p no:cacheprovider 2>&1 | tail -15 | tee "$OUT/gpu9_program_end.txt"

echo "== 3. disk cache size limit"
CACHE=$(mktemp -d)
ACCJIT_CACHE_DIR="$CACHE" ACCJIT_CACHE_MAX_MB=1 timeout 600 "$PY" - <<'PY' 2>&1 | tee "$OUT/gpu9_cache.txt"
import os, numpy as np, accjit as acc
acc.set_device_type("nvidia")
d = os.environ["ACCJIT_CACHE_DIR"]
b = np.ones(64, dtype=np.float32)
N = 300
for i in range(N):
    lib = acc.c(f"void k{i}(int n, float *a) {{\n#pragma acc parallel loop copy(a[0:n])\nfor (int j = 0; j < n; j++) a[j] = a[j] * 1.0f + {i}.0f;\n}}\n", name=f"c{i}.c")
    getattr(lib, f"k{i}")(64, b)
files = [f for f in os.listdir(d) if f.endswith(".bin")]
total = sum(os.path.getsize(os.path.join(d, f)) for f in files)
# All N would not fit: some must have gone (else the check says so).
need_evict = len(files) and total / len(files) * N > (1 << 20)
ok = 0 < total <= (1 << 20) and (len(files) < N or not need_evict)
print(f"CACHE files {len(files)} of {N} total {total} limit {1 << 20} {'ok' if ok else 'OVER'}{'' if need_evict else ' (all fit: eviction not exercised)'}")
PY
ACCJIT_CACHE_DIR="$CACHE" ACCJIT_CACHE_MAX_MB=1 ACCJIT_CUDA_TRACE=1 timeout 300 "$PY" - <<'PY' > "$OUT/gpu9_cache_reload.txt" 2>&1
import numpy as np, accjit as acc
acc.set_device_type("nvidia")
i = 299
b = np.ones(64, dtype=np.float32)
lib = acc.c(f"void k{i}(int n, float *a) {{\n#pragma acc parallel loop copy(a[0:n])\nfor (int j = 0; j < n; j++) a[j] = a[j] * 1.0f + {i}.0f;\n}}\n", name=f"c{i}.c")
getattr(lib, f"k{i}")(64, b)
print("RELOAD", "ok" if (b == 1 + i).all() else "WRONG")
PY
grep -E "RELOAD|disk cache|compiled" "$OUT/gpu9_cache_reload.txt" | tail -3
rm -rf "$CACHE"

echo
echo "== gpu9 summary"
printf '%-40s %s\n' "launch µs (sync async call cupy_sync cupy_async)" "$(grep -m1 '^LAUNCH' "$OUT/gpu9_launch.txt" | awk '{print $3, $5, $7, $9, $11, $13}')"
printf '%-40s %s\n' "ends + link + worker-shared (pytest)" "$(tail -1 "$OUT/gpu9_program_end.txt")"
printf '%-40s %s\n' "cache limit 1 MiB" "$(grep -m1 '^CACHE' "$OUT/gpu9_cache.txt" | cut -d' ' -f2-)"
printf '%-40s %s\n' "reload from disk" "$(grep -q 'module from the disk cache' "$OUT/gpu9_cache_reload.txt" && echo yes || echo NO) $(grep -m1 RELOAD "$OUT/gpu9_cache_reload.txt")"
