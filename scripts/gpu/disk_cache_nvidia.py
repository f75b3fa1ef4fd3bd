"""The disk cache of compiled programs on nvidia (rust/driver/src/disk.rs):
a C program, a Fortran module and Python kernels compiled for nvidia in one
process are loaded from the disk cache (Cranelift image + PTX; the cubin
from the runtime's cache) in the next, give the same results, and say so in
their report. Each run is a fresh process sharing one temporary
ACCJIT_CACHE_DIR. Prints a table last; exit status 1 when a check failed.

    python scripts/gpu/disk_cache_nvidia.py
"""

import json
import os
import subprocess
import sys
import tempfile

C_CHILD = r'''
import json
import numpy as np
import accjit as acc
acc.set_device_type("nvidia")
SRC = r"""
#include <math.h>
#include <stdio.h>
double scale = 1.5;
#pragma acc declare copyin(scale)
static const char *names[] = {"low", "high"};
double norm_sum(int n, const double *x) {
    double s = 0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
    for (int i = 0; i < n; i++) s += sqrt(x[i] * x[i] + 1.0) * scale;
    return s;
}
void fill(int n, double *y) {
    #pragma acc parallel loop copyout(y[0:n])
    for (int i = 0; i < n; i++) y[i] = sin(0.1 * i) + cos(0.2 * i);
}
void fill_host(int n, double *y) {
    #pragma acc parallel loop copyout(y[0:n]) if(0)
    for (int i = 0; i < n; i++) y[i] = 2.0 * i;
}
int say(int k) { printf("hello %s %d\n", names[k & 1], k); fflush(stdout); return 2 * k; }
"""
lib = acc.c(SRC, name="cached_nv.c")
x = np.linspace(-2.0, 3.0, 100000)
y = np.zeros(4097)
lib.fill(4097, y)
h = np.zeros(9)
lib.fill_host(9, h)
want_y = np.sin(0.1 * np.arange(4097)) + np.cos(0.2 * np.arange(4097))
want_norm = float(np.sum(np.sqrt(x * x + 1.0) * 1.5))
ok = bool(np.allclose(y, want_y, rtol=1e-12, atol=1e-12)) and h.tolist() == [2.0 * i for i in range(9)] \
    and abs(lib.norm_sum(100000, x) - want_norm) < 1e-9 * abs(want_norm) and lib.say(3) == 6
print("RESULT " + json.dumps({"ok": ok, "disk": lib.report()["from_disk_cache"], "y": y[:50].tolist()}))
'''

F_CHILD = r'''
import json
import numpy as np
import accjit as acc
acc.set_device_type("nvidia")
m = acc.fortran("""
module stats
contains
  real(8) function total(n, x)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    integer :: i
    total = 0
    !$acc parallel loop reduction(+:total) copyin(x)
    do i = 1, n
      total = total + x(i) * x(i)
    end do
  end function
end module
""", name="cached_nv.f90")
x = np.arange(1.0, 1001.0)
ok = m.total(1000, x) == float(np.sum(x * x))
print("RESULT " + json.dumps({"ok": bool(ok), "disk": m.report()["from_disk_cache"]}))
'''

PY_CHILD = r'''
import json
import numpy as np
import accjit as acc
acc.set_device_type("nvidia")

@acc.parallel
def smooth(x, y):
    for i in acc.loop(len(x) - 2):
        y[i + 1] = 0.25 * x[i] + 0.5 * x[i + 1] + 0.25 * x[i + 2]

x = np.sin(np.arange(5000.0) * 0.37)
y = np.zeros(5000)
smooth(x, y)
want = 0.25 * x[:-2] + 0.5 * x[1:-1] + 0.25 * x[2:]
ok = bool(np.allclose(y[1:-1], want, rtol=1e-12, atol=1e-14))
print("RESULT " + json.dumps({"ok": ok, "disk": smooth.inspect()["from_disk_cache"]}))
'''


def run(child, env):
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env, timeout=300)
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
    if p.returncode != 0 or not lines:
        return {"ok": False, "disk": None, "error": (p.stdout + p.stderr)[-600:]}
    r = json.loads(lines[-1][len("RESULT "):])
    if p.stderr.strip():
        r["stderr"] = p.stderr.strip()[-300:]
    return r


def main():
    rows = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="accjit-disk-nv-") as d:
        env = dict(os.environ, ACCJIT_CACHE_DIR=d)
        env.pop("ACCJIT_CACHE", None)
        for name, child in (("C", C_CHILD), ("Fortran", F_CHILD), ("Python kernel", PY_CHILD)):
            first = run(child, env)
            second = run(child, env)
            same = first.get("y") == second.get("y")
            good = first["ok"] and second["ok"] and first["disk"] is False and second["disk"] is True and same
            failed |= not good
            rows.append((name, first, second, good))
            for r in (first, second):
                for k in ("error", "stderr"):
                    if k in r:
                        print(f"{name}: {k}: {r[k]}")
        files = sorted(os.listdir(d))
    print()
    print("== disk cache on nvidia (fresh processes, one cache directory)")
    print(f"{'program':<14} {'1st ok':>6} {'1st disk':>8} {'2nd ok':>6} {'2nd disk':>8}  verdict")
    for name, a, b, good in rows:
        print(f"{name:<14} {str(a['ok']):>6} {str(a['disk']):>8} {str(b['ok']):>6} {str(b['disk']):>8}  {'ok' if good else 'FAILED'}")
    kinds = {f.split('-')[0] for f in files if f.endswith('.bin')}
    print(f"cache files: {len([f for f in files if f.startswith('prog-')])} prog, {len([f for f in files if f.startswith('cuda-')])} cuda ({', '.join(sorted(kinds))})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
