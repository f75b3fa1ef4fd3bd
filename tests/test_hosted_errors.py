"""A C program's fatal end never ends the Python process that hosts it
(DESIGN.md §6, docs/runtime-abi.md "Fatal errors").

Runtime errors raise accjit.AccError (subclass per code) naming the variable
and the source line; exit(n) raises ProgramExit(n); abort() and failed asserts
raise ProgramAbort. Afterwards the process, the runtime and the present table
keep working: the structured data regions of the dead call are released.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accjit as acc

SRC = r'''
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <openacc.h>

void upd(int n, float *a) {
    #pragma acc update self(a[0:n])
}

void region_then_fail(int n, float *a, float *b) {
    #pragma acc data copyin(a[0:n])
    {
        #pragma acc update self(b[0:n])
    }
}

int quit(int code) { printf("leaving with %d\n", code); exit(code); return 0; }
void boom(void) { abort(); }
void check(int x) { assert(x == 1); }

int kernel_exit(int n, int *a) {
    #pragma acc parallel loop copy(a[0:n]) num_gangs(8)
    for (int i = 0; i < n; i++) {
        if (i == n - 1) exit(7);
        a[i] = i;
    }
    return 0;
}

int kernel_atomic_exit(int n, int *count) {
    #pragma acc parallel loop copy(count[0:1]) num_gangs(4)
    for (int i = 0; i < n; i++) {
        #pragma acc atomic update
        count[0] += 1;
        if (i == 3) exit(5);
    }
    return 0;
}

int sum(int n, const int *a) {
    int s = 0;
    #pragma acc parallel loop copyin(a[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

int main(void) { exit(3); }
'''


@pytest.fixture(scope="module")
def lib():
    # exit() and abort() inside kernels exist on the CPU devices (the GPU has no host to
    # end): these tests run on multicore whatever ACC_DEVICE_TYPE says.
    old = acc.get_device_type()
    acc.set_device_type("multicore")
    yield acc.c(SRC, name="hosted.c", device_type="multicore")
    acc.set_device_type(old)


def still_works(lib):
    a = np.arange(100, dtype=np.int32)
    assert lib.sum(100, a) == 4950
    assert not acc.is_present(a)
    other = acc.c("int twice(int v) { return 2 * v; }\n", name="other.c")
    assert other.twice(21) == 42


def test_not_present_raises_acc_error_with_var_and_line(lib):
    a = np.zeros(16, dtype=np.float32)
    with pytest.raises(acc.NotPresentError) as ei:
        lib.upd(16, a)
    e = ei.value
    assert isinstance(e, acc.AccError)
    assert e.code_name == "acc_error_not_present"
    assert e.var == "a[0:n]"
    assert e.loc == "hosted.c:8"
    start = a.__array_interface__["data"][0]
    assert e.host_range == (start, start + 64)
    assert "a[0:n]" in str(e) and "hosted.c:8" in str(e)
    still_works(lib)


def test_caught_error_prints_nothing(lib, capfd):
    # The exception is the report: a caller that catches it sees no stderr
    # noise (the runtime prints the message only where the program ends).
    a = np.zeros(16, dtype=np.float32)
    with pytest.raises(acc.NotPresentError):
        lib.upd(16, a)
    out, err = capfd.readouterr()
    assert err == "", err
    still_works(lib)


def test_not_hosted_run_prints_the_error(tmp_path):
    prog = tmp_path / "np.c"
    prog.write_text(
        "int main(void) {\n  float a[8];\n  #pragma acc parallel loop present(a[0:8])\n"
        "  for (int i = 0; i < 8; i++) a[i] = i;\n  return 0;\n}\n"
    )
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(acc.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(x for x in (here, env.get("PYTHONPATH")) if x)
    cp = subprocess.run([sys.executable, "-m", "accjit", "run", "--device", "multicore", str(prog)], capture_output=True, text=True, env=env, timeout=120)
    assert cp.returncode == 1, cp.stderr
    assert "accjit: present: data is not present" in cp.stderr and "np.c:3" in cp.stderr, cp.stderr


def test_dead_call_releases_its_data_region(lib):
    a = np.ones(32, dtype=np.float32)
    b = np.ones(32, dtype=np.float32)
    with pytest.raises(acc.NotPresentError) as ei:
        lib.region_then_fail(32, a, b)
    assert ei.value.var == "b[0:n]"
    assert ei.value.loc == "hosted.c:14"
    assert not acc.is_present(a), "the data region of the dead call must end"
    # and it can be entered again normally
    acc.copyin(a)
    assert acc.is_present(a)
    acc.delete(a)
    assert not acc.is_present(a)
    still_works(lib)


def test_exit_raises_program_exit(lib):
    with pytest.raises(acc.ProgramExit) as ei:
        lib.quit(3)
    assert ei.value.code == 3
    assert isinstance(ei.value, RuntimeError)
    with pytest.raises(acc.ProgramExit) as ei:
        lib.quit(0)
    assert ei.value.code == 0
    still_works(lib)


def test_abort_and_assert_raise_program_abort(lib):
    with pytest.raises(acc.ProgramAbort) as ei:
        lib.boom()
    assert "abort" in ei.value.message
    lib.check(1)
    with pytest.raises(acc.ProgramAbort) as ei:
        lib.check(2)
    assert "x == 1" in ei.value.message and "hosted.c:" in ei.value.message
    still_works(lib)


def test_exit_inside_a_kernel_gang(lib):
    a = np.zeros(64, dtype=np.int32)
    for _ in range(3):
        with pytest.raises(acc.ProgramExit) as ei:
            lib.kernel_exit(64, a)
        assert ei.value.code == 7
        assert not acc.is_present(a)
    count = np.zeros(1, dtype=np.int32)
    with pytest.raises(acc.ProgramExit) as ei:
        lib.kernel_atomic_exit(100, count)
    assert ei.value.code == 5
    still_works(lib)


def test_run_main_exit_is_the_status(lib):
    assert lib.run_main(["prog"]) == 3
    still_works(lib)


def test_not_hosted_run_ends_the_process(tmp_path):
    prog = tmp_path / "ex.c"
    prog.write_text("#include <stdlib.h>\n#include <stdio.h>\nint main(void) { printf(\"out\\n\"); exit(4); }\n")
    env = dict(os.environ)
    here = os.path.dirname(os.path.dirname(os.path.abspath(acc.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(x for x in (here, env.get("PYTHONPATH")) if x)
    cp = subprocess.run([sys.executable, "-m", "accjit", "run", str(prog)], capture_output=True, text=True, env=env, timeout=120)
    assert cp.returncode == 4, cp.stderr
    assert cp.stdout == "out\n"


def test_many_failures_do_not_exhaust_anything(lib):
    a = np.zeros(8, dtype=np.float32)
    for _ in range(20):
        with pytest.raises(acc.AccError):
            lib.upd(8, a)
    still_works(lib)
