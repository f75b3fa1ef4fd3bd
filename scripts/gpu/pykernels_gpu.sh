#!/usr/bin/env bash
# Python kernels (issue 10) on the nvidia device. Run on a machine with an NVIDIA GPU,
# the accjit wheel installed (or PYTHONPATH set), pytest importable:
#
#     bash scripts/gpu/pykernels_gpu.sh [PYTHON]
#
# 1. the Python-kernel conformance suite (tests/pykernels) with
#    ACCJIT_PYKERNELS_DEVICES=nvidia: summary line, failures in
#    results/pykernels_nvidia.txt;
# 2. the same suite's data tests on the host device with separate device memory
#    (ACCJIT_DISCRETE_HOST=1), as a cross-check of the discrete-memory semantics;
# 3. benchmarks/bench_pykernels.py --device nvidia (Python kernels vs acc.c vs CuPy),
#    full output in results/bench_pykernels_nvidia.txt;
# 4. notebooks/03_python_kernels.ipynb on nvidia (the @acc.jit Jacobi solver in acc.data,
#    checked against NumPy), output in results/notebook03_nvidia.txt;
# 5. tests/test_pykernel_api.py (inspect(code=True) shows the PTX of a kernel compiled
#    for nvidia; the API on multicore), output in results/pykernel_api_gpu.txt;
# then a short table. PYK_BENCH_ARGS adds benchmark options (e.g. --quick).
set -u
cd "$(dirname "$0")/../.."
PY=${1:-python3}
OUT=results
mkdir -p "$OUT"

echo "== discovery"
"$PY" -c 'import accjit as acc; print("accjit", acc.__version__, "nvidia devices:", acc.get_num_devices("nvidia"))'

echo "== tests/pykernels on nvidia"
ACCJIT_PYKERNELS_DEVICES=nvidia "$PY" -m pytest -q -p no:cacheprovider tests/pykernels -rfE \
    >"$OUT/pykernels_nvidia.txt" 2>&1
suite_rc=$?
suite_line=$(grep -E '(passed|failed|error)' "$OUT/pykernels_nvidia.txt" | tail -1)
echo "$suite_line"
grep -E '^(FAILED|ERROR)' "$OUT/pykernels_nvidia.txt" | head -40

echo "== tests/pykernels/test_pk_data.py on the discrete host device"
ACCJIT_DISCRETE_HOST=1 ACCJIT_PYKERNELS_DEVICES=host "$PY" -m pytest -q -p no:cacheprovider \
    tests/pykernels/test_pk_data.py -rfE >"$OUT/pykernels_discrete_host.txt" 2>&1
disc_rc=$?
disc_line=$(grep -E '(passed|failed|error)' "$OUT/pykernels_discrete_host.txt" | tail -1)
echo "$disc_line"

echo "== benchmarks/bench_pykernels.py --device nvidia"
"$PY" benchmarks/bench_pykernels.py --device nvidia ${PYK_BENCH_ARGS:-} 2>&1 | tee "$OUT/bench_pykernels_nvidia.txt"
bench_rc=${PIPESTATUS[0]}

echo "== notebooks/03_python_kernels.ipynb on nvidia"
# Without matplotlib the timeline cell is left out (the test would skip the whole notebook).
ACC_DEVICE_TYPE=nvidia MPLBACKEND=Agg "$PY" - >"$OUT/notebook03_nvidia.txt" 2>&1 <<'PYEOF'
import json, linecache
try:
    import matplotlib  # noqa: F401
    have_mpl = True
except ImportError:
    have_mpl = False
book = "notebooks/03_python_kernels.ipynb"
env = {"__name__": "__notebook__"}
for i, cell in enumerate(json.load(open(book))["cells"]):
    src = "".join(cell["source"])
    if cell["cell_type"] != "code" or (not have_mpl and "prof.timeline(" in src):
        continue
    name = f"{book}[cell {i}]"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    exec(compile(src, name, "exec"), env)
import accjit as acc
assert acc.get_device_type() == "nvidia", acc.get_device_type()
assert 0 < env["iters"] == env["ref_iters"] < env["max_iters"]
print(f"notebook 03 ok on nvidia: {env['iters']} sweeps as NumPy, timeline {'drawn' if have_mpl else 'left out (no matplotlib)'}")
PYEOF
nb_rc=$?
nb_line=$(tail -1 "$OUT/notebook03_nvidia.txt")
echo "$nb_line"

echo "== tests/test_pykernel_api.py (inspect PTX on nvidia)"
"$PY" -m pytest -q -p no:cacheprovider tests/test_pykernel_api.py -rfE >"$OUT/pykernel_api_gpu.txt" 2>&1
api_rc=$?
api_line=$(grep -E '(passed|failed|error)' "$OUT/pykernel_api_gpu.txt" | tail -1)
echo "$api_line"

echo
echo "== summary (pykernels on nvidia)"
printf '%-34s %-6s %s\n' "part" "rc" "result"
printf '%-34s %-6s %s\n' "tests/pykernels (nvidia)" "$suite_rc" "$suite_line"
printf '%-34s %-6s %s\n' "test_pk_data (discrete host)" "$disc_rc" "$disc_line"
printf '%-34s %-6s %s\n' "notebook 03 (nvidia)" "$nb_rc" "$nb_line"
printf '%-34s %-6s %s\n' "test_pykernel_api (PTX inspect)" "$api_rc" "$api_line"
printf '%-34s %-6s %s\n' "bench_pykernels (nvidia)" "$bench_rc" "$(grep -c 'yes$' "$OUT/bench_pykernels_nvidia.txt") of 4 kernels correct"
grep -E '^(kernel|saxpy|Jacobi|sum|matmul|first call|cached call|@acc.jit|1-gang|parallel loop)' "$OUT/bench_pykernels_nvidia.txt"
