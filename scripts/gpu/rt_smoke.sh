#!/usr/bin/env bash
# GPU smoke test of the nvidia device (issue 9, runtime side). Run on a
# machine with an NVIDIA GPU, the accjit wheel installed (or PYTHONPATH set):
#
#     bash scripts/gpu/rt_smoke.sh [PYTHON]
#
# 1. device discovery and properties (acc_get_num_devices, names, memory);
# 2. the conformance programs of tests/conformance/{core,data,gaps} run with
#    ACC_DEVICE_TYPE=nvidia (`python -m accjit run`), each judged by its
#    first-line expectation as tests/test_conformance.py does, pass/fail per
#    program in results/rt_smoke_programs.txt;
# 3. a kernel fault does not end the process and the device works after it;
# 4. two devices in one program (scripts/gpu/rt_two_gpus.c; says SKIP on one GPU);
# 5. `ACC_DEVICE_TYPE=nvidia pytest -q tests` (summary line);
# then a short table. Environment: RT_SMOKE_PARTS (default "core data gaps"),
# RT_SMOKE_JOBS (parallel programs, default 4), RT_SMOKE_PYTEST=0 to skip 5.
set -u
cd "$(dirname "$0")/../.."
PY=${1:-python3}
OUT=results
mkdir -p "$OUT"
PARTS=${RT_SMOKE_PARTS:-core data gaps}
JOBS=${RT_SMOKE_JOBS:-4}
export ACC_DEVICE_TYPE=nvidia

echo "== discovery"
"$PY" - <<'PY' 2>&1 | tee "$OUT/rt_smoke_devices.txt"
import accjit as acc
n = acc.get_num_devices("nvidia")
print("nvidia devices:", n)
for i in range(n):
    print(f"  #{i}:", acc.get_property("name", i, "nvidia"), "| memory", acc.get_property("memory", i, "nvidia"),
          "| free", acc.get_property("free_memory", i, "nvidia"), "| vendor", acc.get_property("vendor", i, "nvidia"))
PY

echo "== conformance programs on nvidia (parts: $PARTS)"
"$PY" - "$JOBS" $PARTS <<'PY' | tee "$OUT/rt_smoke_programs.txt"
import concurrent.futures, os, re, subprocess, sys, time
from pathlib import Path
jobs, parts = int(sys.argv[1]), sys.argv[2:]
corpus = Path("tests/conformance")
expect_re = re.compile(r'^//\s*expect:\s*(fail|discrete|compile-error)\b(?:\s+"([^"]*)")?')
progs = sorted(p for part in parts for p in (corpus / part).glob("*.c"))
def run(p):
    first = p.read_text(errors="replace").split("\n", 1)[0]
    m = expect_re.match(first)
    kind, sub = (m.group(1), m.group(2)) if m else ("pass", None)
    t0 = time.time()
    try:
        r = subprocess.run([sys.executable, "-m", "accjit", "run", p.name], cwd=p.parent, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return p, "FAIL", "timeout", time.time() - t0
    dt = time.time() - t0
    err = (r.stderr or "").strip().splitlines()
    if kind in ("pass", "discrete"):
        ok = r.returncode == 0 and not r.stderr.strip()
        why = "" if ok else f"rc={r.returncode} " + (err[-1] if err else (r.stdout.strip().splitlines() or [""])[-1])
    else:
        ok = r.returncode != 0 and (sub or "").lower() in r.stderr.lower()
        why = "" if ok else f"rc={r.returncode}, expected {kind} {sub!r}: " + (err[-1] if err else "")
    return p, "pass" if ok else "FAIL", why[:200], dt
with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
    results = list(ex.map(run, progs))
npass = 0
for p, st, why, dt in results:
    npass += st == "pass"
    print(f"{st:4}  {p.parent.name}/{p.name}  {dt:5.1f}s  {why}")
print(f"PROGRAMS {npass}/{len(results)} pass")
PY

echo "== fault recovery"
"$PY" - <<'PY' 2>&1 | tee "$OUT/rt_smoke_fault.txt"
import numpy as np, accjit as acc
acc.set_device_type("nvidia")
m = acc.c(r'''
void poke(long n, float *x) {
    float *bad = (float *)0x10;
    #pragma acc parallel loop deviceptr(bad) copy(x[0:n])
    for (long i = 0; i < n; i++) bad[i] = x[i];
}
void twice(long n, float *x) {
    #pragma acc parallel loop copy(x[0:n])
    for (long i = 0; i < n; i++) x[i] *= 2.0f;
}
''', name="fault.c")
x = np.random.default_rng(1).random(1000, dtype=np.float32)
try:
    m.poke(x.size, x)
    print("FAULT: no error raised")
except acc.AccError as e:
    print("FAULT raised:", type(e).__name__, str(e)[:160])
y = x.copy()
m.twice(y.size, y)
print("AFTER-FAULT", "ok" if np.allclose(y, 2 * x) else "WRONG")
PY

echo "== two devices"
"$PY" -m accjit run scripts/gpu/rt_two_gpus.c 2>&1 | tail -6 | tee "$OUT/rt_smoke_two_gpus.txt"

if [ "${RT_SMOKE_PYTEST:-1}" != 0 ]; then
    echo "== pytest -q -rfE tests (ACC_DEVICE_TYPE=nvidia; full output in $OUT/rt_smoke_pytest_full.txt)"
    ACCJIT_CONFORMANCE_DEVICES=nvidia "$PY" -m pytest -q -rfE tests -p no:cacheprovider > "$OUT/rt_smoke_pytest_full.txt" 2>&1
    # One line per failure or error (the -rfE summary), then the count line.
    grep -E '^(FAILED|ERROR) ' "$OUT/rt_smoke_pytest_full.txt" | cut -c1-220 > "$OUT/rt_smoke_pytest.txt"
    tail -1 "$OUT/rt_smoke_pytest_full.txt" >> "$OUT/rt_smoke_pytest.txt"
    cat "$OUT/rt_smoke_pytest.txt"
fi

echo
echo "== rt_smoke summary"
printf '%-28s %s\n' "nvidia devices" "$(grep -m1 'nvidia devices' "$OUT/rt_smoke_devices.txt" | awk '{print $3}')"
printf '%-28s %s\n' "conformance on nvidia" "$(grep -m1 '^PROGRAMS' "$OUT/rt_smoke_programs.txt" | cut -d' ' -f2-)"
printf '%-28s %s\n' "fault raises AccError" "$(grep -q 'FAULT raised' "$OUT/rt_smoke_fault.txt" && echo yes || echo NO)"
printf '%-28s %s\n' "device usable after fault" "$(grep -m1 'AFTER-FAULT' "$OUT/rt_smoke_fault.txt" | awk '{print $2}')"
printf '%-28s %s\n' "two devices" "$(tail -1 "$OUT/rt_smoke_two_gpus.txt")"
[ -f "$OUT/rt_smoke_pytest.txt" ] && printf '%-28s %s\n' "pytest (nvidia)" "$(tail -1 "$OUT/rt_smoke_pytest.txt")"
