"""The data environment on discrete memory without a GPU: the host device with
ACCJIT_DISCRETE_HOST=1 keeps every device copy in separate memory (kernels still run on
the CPU), as the nvidia device does. Each check runs in a fresh process (the variable is
read when the runtime starts).

- NumPy arrays a kernel uses with no data clause are copied implicitly for the launch
  (copyin for const pointees, copy otherwise) and leave nothing present;
- a pointer into data that is neither present nor an array of the call is a
  not-present error naming the variable (never a host address on the device);
- the `// expect: discrete` conformance programs pass.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

SNIPPET = r'''
import numpy as np, accjit as acc
assert acc.get_property("shared_memory_support") == 0
lib = acc.c(r"""
#include <stdlib.h>
void saxpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
double dot(long n, const double *x, const double *y) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s)
    for (long i = 0; i < n; i++) s += x[i] * y[i];
    return s;
}
int heap(int n) {
    int *tmp = malloc(n * sizeof(int)), s = 0;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) s += tmp[i] = i;
    free(tmp);
    return s;
}
""", name="d.c")
rng = np.random.default_rng(7)
x = rng.random(1000, dtype=np.float32)
y = rng.random(1000, dtype=np.float32)
want = 2.5 * x + y
lib.saxpy(x.size, 2.5, x, y)
np.testing.assert_allclose(y, want, rtol=1e-6)
a = rng.random(500)
assert abs(lib.dot(a.size, a, a) - float(a @ a)) < 1e-9 * a.size
assert acc.present_table() == []
with acc.data(copy=[y]):
    lib.saxpy(x.size, 1.0, x, y)      # y present: the kernel uses the device copy
    assert acc.is_present(y) and not acc.is_present(x)
np.testing.assert_allclose(y, want + x, rtol=1e-6)
try:
    lib.heap(10)
    raise SystemExit("no error for a C pointer into no present data")
except acc.NotPresentError as e:
    assert e.var == "tmp" and "d.c:" in (e.loc or ""), (e.var, e.loc)
print("discrete ok")
'''


def run_discrete(args, **kw):
    env = dict(os.environ, ACCJIT_DISCRETE_HOST="1", ACC_DEVICE_TYPE="host")
    env["PYTHONPATH"] = os.pathsep.join(x for x in (env.get("PYTHONPATH"), str(HERE.parent / "python")) if x)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, env=env, **kw)


def test_numpy_arrays_are_copied_implicitly_and_host_pointers_refused():
    r = run_discrete(["-c", SNIPPET])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "discrete ok" in r.stdout


@pytest.mark.parametrize("prog", sorted(p.name for p in (HERE / "conformance" / "data").glob("09[1-5]_discrete_*.c")))
def test_discrete_conformance_programs(prog):
    r = run_discrete(["-m", "accjit", "run", prog], cwd=HERE / "conformance" / "data")
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
