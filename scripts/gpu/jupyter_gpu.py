"""GPU check of the Jupyter pieces (issue 12 items 2-3) on the nvidia device:
the compile report of a program compiled for nvidia (thread blocks, loop
levels), `accjit run --info` with --device nvidia, the %%acc magic with
--device nvidia in an IPython shell (no Jupyter kernel needed), and, when
nbclient and ipykernel are installed, the tutorial notebook run in a Jupyter
kernel with ACC_DEVICE_TYPE=nvidia. Results checked against NumPy.

    python scripts/gpu/jupyter_gpu.py        # from the repository root
    python scripts/gpu/jupyter_gpu.py multicore   # the same checks on the CPU (a dry run)

Prints a short table last. Each part is skipped (not failed) when what it
needs is missing (no nvidia device, no IPython, no nbclient).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
rows = []


def part(name):
    def wrap(fn):
        t = time.perf_counter()
        try:
            note = fn() or ""
            status = "skip" if note.startswith("skip") else "pass"
        except Exception as e:  # noqa: BLE001 (a report, not a test runner)
            traceback.print_exc()
            status, note = "FAIL", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:110]
        rows.append((name, status, f"{time.perf_counter() - t:.1f}", note))
        return fn

    return wrap


import accjit as acc  # noqa: E402

DEVICE = sys.argv[1] if len(sys.argv) > 1 else "nvidia"
HAVE_GPU = DEVICE != "nvidia" or acc.get_num_devices("nvidia") > 0

SRC = r"""
#include <math.h>
void saxpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
double norm2(int n, const double *x) {
    double s = 0;
    #pragma acc parallel loop gang worker vector num_workers(4) vector_length(64) reduction(+:s) copyin(x[0:n])
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}
void prefix(int n, const double *x, double *s) {
    s[0] = x[0];
    #pragma acc kernels copyin(x[0:n]) copy(s[0:n])
    for (int i = 1; i < n; i++) s[i] = s[i - 1] + x[i];
}
"""


@part("report of a program compiled for DEVICE")
def _report():
    if not HAVE_GPU:
        return "skip: no nvidia device"
    lib = acc.c(SRC, device_type=DEVICE, name="gpu.c")
    rep = lib.report()
    print(rep)
    rng = np.random.default_rng(5)
    x = rng.random(1 << 20, dtype=np.float32)
    y = rng.random(1 << 20, dtype=np.float32)
    want = np.float32(1.5) * x + y
    lib.saxpy(x.size, 1.5, x, y)
    assert np.allclose(y, want)
    d = rng.random(100_000)
    assert np.isclose(lib.norm2(d.size, d), np.linalg.norm(d))
    s = np.zeros(1000)
    lib.prefix(1000, d[:1000].copy(), s)
    assert np.allclose(s, np.cumsum(d[:1000]))
    blocks = [dict(r["launch"]).get("thread block") for r in rep["regions"]]
    assert DEVICE != "nvidia" or blocks[1] == "64x4", blocks
    return f"blocks {blocks}; results agree"


@part("accjit run --info --device DEVICE")
def _cli():
    if not HAVE_GPU:
        return "skip: no nvidia device"
    prog = SRC + r"""
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 4096; double x[4096], s[4096], want = 0;
    srand(42);
    for (int i = 0; i < n; i++) { x[i] = rand() % 100; want += x[i]; }
    prefix(n, x, s);
    if (s[n - 1] != want) { printf("FAIL %f %f\n", s[n - 1], want); return 1; }
    printf("ok\n");
    return 0;
}
"""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "prog.c")
        with open(p, "w") as f:
            f.write(prog)
        r = subprocess.run([sys.executable, "-m", "accjit", "run", "--info", "--device", DEVICE, p], capture_output=True, text=True, timeout=120)
    print(r.stderr)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stdout, r.stderr[-500:])
    assert f"for {DEVICE}" in r.stderr and "kept it sequential" in r.stderr
    assert DEVICE != "nvidia" or "thread block" in r.stderr
    return "report on stderr, program ok"


@part("%%acc c --device DEVICE (IPython shell)")
def _magic():
    if not HAVE_GPU:
        return "skip: no nvidia device"
    try:
        from IPython.core.interactiveshell import InteractiveShell
    except ImportError:
        return "skip: IPython not installed"
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "accjit")
    sh.run_cell_magic("acc", f"c --device {DEVICE} --name glib", SRC)
    ns = sh.user_ns
    x = np.random.default_rng(6).random(50_000)
    assert np.isclose(ns["norm2"](x.size, x), np.linalg.norm(x))
    assert ns["glib"].device_type == DEVICE
    return "callables defined, results agree"


@part("00_tutorial.ipynb in a Jupyter kernel, ACC_DEVICE_TYPE=DEVICE")
def _notebook():
    if not HAVE_GPU:
        return "skip: no nvidia device"
    try:
        import nbclient
        import nbformat
        import ipykernel  # noqa: F401
    except ImportError:
        return "skip: nbclient/nbformat/ipykernel not installed"
    nb = nbformat.read(os.path.join(ROOT, "notebooks", "00_tutorial.ipynb"), as_version=4)
    old = os.environ.get("ACC_DEVICE_TYPE")
    os.environ["ACC_DEVICE_TYPE"] = DEVICE
    try:
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": os.path.join(ROOT, "notebooks")}}).execute()
    finally:
        if old is None:
            os.environ.pop("ACC_DEVICE_TYPE", None)
        else:
            os.environ["ACC_DEVICE_TYPE"] = old
    first = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert f"on {DEVICE}" in first, first
    return "all cells ran (the error cell failed as tagged)"


print("\n== jupyter_gpu summary (accjit", acc.__version__, "| device", DEVICE, "| nvidia devices:", acc.get_num_devices("nvidia"), ")")
print(f"{'part':<62} {'status':<6} {'s':>6}  note")
for name, status, secs, note in rows:
    print(f"{name:<62} {status:<6} {secs:>6}  {note}")
sys.exit(1 if any(r[1] == "FAIL" for r in rows) else 0)
