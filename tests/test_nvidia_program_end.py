"""exit(), abort() and failed asserts inside kernels on the nvidia device
(docs/nvidia.md, "Ending the program in device code"): the launch
completes, then the call ends as on the CPU devices — ProgramExit with the
status, ProgramAbort with the message — the Python process goes on, the
dead call's data regions are released, and the device keeps working. With
`accjit run` the process exits with the status. Skipped without an nvidia
device (no libcuda or no GPU).
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import accjit as acc

pytestmark = pytest.mark.skipif(acc.get_num_devices("nvidia") == 0, reason="no nvidia device")

SRC = r'''
#include <stdlib.h>
#include <assert.h>

#pragma acc routine seq
static void give_up(int v) { if (v < 0) abort(); }

int loop_exit(int n, int *a, int at) {
    #pragma acc parallel loop copy(a[0:n]) num_gangs(8)
    for (int i = 0; i < n; i++) {
        if (i == at) exit(a[i] + 100);
        a[i] = i;
    }
    return 0;
}

int routine_abort(int n, int *a) {
    #pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++) give_up(a[i]);
    return 0;
}

int serial_assert(int n, int *a) {
    #pragma acc serial copy(a[0:n])
    { assert(a[0] >= 0); a[0] += 1; }
    return 0;
}

/* exit in a vector loop of one gang, a reduction (barriers) after it */
int vector_exit_then_reduce(int n, int *a) {
    int s = 0;
    #pragma acc parallel num_gangs(4) vector_length(128) copy(a[0:n]) reduction(+:s)
    {
        #pragma acc loop gang
        for (int g = 0; g < 4; g++) {
            #pragma acc loop vector reduction(+:s)
            for (int i = 0; i < n; i++) {
                if (g == 2 && i == 5) exit(42);
                s += a[i];
            }
        }
    }
    return s;
}

int sum(int n, const int *a) {
    int s = 0;
    #pragma acc parallel loop copyin(a[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}
'''


@pytest.fixture(scope="module")
def lib():
    old = acc.get_device_type()
    acc.set_device_type("nvidia")
    yield acc.c(SRC, name="ends.c", device_type="nvidia")
    acc.set_device_type(old)


def still_works(lib):
    a = np.random.default_rng(7).integers(0, 1000, 4096).astype(np.int32)
    assert lib.sum(a.size, a) == int(a.sum())
    assert not acc.is_present(a)


def test_exit_in_a_parallel_loop(lib):
    rng = np.random.default_rng()
    for _ in range(3):
        a = rng.integers(0, 50, 1000).astype(np.int32)
        at = int(rng.integers(0, a.size))
        with pytest.raises(acc.ProgramExit) as ei:
            lib.loop_exit(a.size, a, at)
        assert ei.value.code == int(a[at]) + 100
        assert not acc.is_present(a), "the dead call's data region is released"
        still_works(lib)
    a = np.zeros(64, dtype=np.int32)
    assert lib.loop_exit(a.size, a, -1) == 0, "no thread ended: the call returns"
    assert (a == np.arange(64)).all()


def test_abort_in_a_routine(lib):
    a = np.ones(500, dtype=np.int32)
    assert lib.routine_abort(a.size, a) == 0
    a[321] = -1
    with pytest.raises(acc.ProgramAbort) as ei:
        lib.routine_abort(a.size, a)
    assert "abort" in ei.value.message
    still_works(lib)


def test_failed_assert_in_a_serial_region(lib):
    a = np.zeros(4, dtype=np.int32)
    assert lib.serial_assert(a.size, a) == 0 and a[0] == 1
    a[0] = -5
    with pytest.raises(acc.ProgramAbort) as ei:
        lib.serial_assert(a.size, a)
    msg = ei.value.message
    assert "a[0] >= 0" in msg and "ends.c:" in msg, msg
    still_works(lib)


def test_exit_among_vector_lanes_with_barriers_after(lib):
    # In a child process with a time limit: lanes that ended must not hold
    # up the reduction's barriers and shuffles of the others (a hang here
    # would stop the whole suite).
    code = f"""
import numpy as np, accjit as acc
acc.set_device_type("nvidia")
lib = acc.c({SRC!r}, name="ends.c", device_type="nvidia")
a = np.arange(300, dtype=np.int32)
try:
    lib.vector_exit_then_reduce(a.size, a)
    print("NO EXIT")
except acc.ProgramExit as e:
    print("EXIT", e.code)
b = np.arange(1000, dtype=np.int32)
print("SUM", lib.sum(b.size, b) == int(b.sum()))
"""
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout.split() == ["EXIT", "42", "SUM", "True"], cp.stdout + cp.stderr


def test_accjit_run_exits_with_the_status(tmp_path):
    prog = tmp_path / "ex.c"
    prog.write_text(
        "#include <stdlib.h>\n#include <stdio.h>\n"
        "int main(void) {\n  int a[16] = {0};\n  printf(\"before\\n\");\n"
        "  #pragma acc parallel loop copy(a[0:16])\n  for (int i = 0; i < 16; i++) { if (i == 9) exit(3); a[i] = i; }\n"
        "  printf(\"after\\n\");\n  return 0;\n}\n"
    )
    env = dict(os.environ, ACC_DEVICE_TYPE="nvidia")
    here = os.path.dirname(os.path.dirname(os.path.abspath(acc.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(x for x in (here, env.get("PYTHONPATH")) if x)
    cp = subprocess.run([sys.executable, "-m", "accjit", "run", str(prog)], capture_output=True, text=True, env=env, timeout=120)
    assert cp.returncode == 3, cp.stderr
    assert cp.stdout == "before\n"
