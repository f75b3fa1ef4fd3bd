"""Short calls run inline on the calling thread (rust/py/src/caller.rs).

A call whose callee's last call was short, and which is no bigger, runs on
the Python thread on a big stack of its own; a first call, or one after a
long call, goes to a worker thread. An inline call that ends the C program
early (exit, abort, failed assert, runtime error, `stop`) still raises in
Python and leaves the process, the runtime and the present table working;
its stack is abandoned. `ACCJIT_CALL_INLINE=0` turns inline calls off.
"""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import accjit as acc
from accjit import _core

SRC = r'''
#include <stdlib.h>
#include <assert.h>
#include <openacc.h>

int pick(int how, int n, float *a, float *b) {
    #pragma acc data copyin(a[0:n])
    {
        if (how == 1) exit(11);
        if (how == 2) abort();
        assert(how != 3);
        if (how == 4) {
            #pragma acc update self(b[0:n])
        }
        if (how == 5) {
            #pragma acc parallel loop num_gangs(4)
            for (int i = 0; i < n; i++) if (i == n - 1) exit(13);
        }
    }
    return how + n;
}

double big_stack(int n) {
    double buf[2 * 1024 * 1024];   /* 16 MiB on the stack */
    /* one element per 4 KiB page: the call stays short once the pages are mapped */
    for (int i = 0; i < 2 * 1024 * 1024; i += 512) buf[i] = (double)(i % 7) * n;
    double s = 0.0;
    for (int i = 0; i < 2 * 1024 * 1024; i += 512) s += buf[i];
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
    acc.set_device_type("multicore")
    yield acc.c(SRC, name="inline.c", device_type="multicore")
    acc.set_device_type(old)


def inline_calls():
    return _core.call_stats()["inline"]


def warm(lib, n=16):
    a = np.ones(n, dtype=np.float32)
    # how = 9 takes no early end; the call is as big as the failing ones (size: |how| + n + elements)
    for _ in range(3):
        assert lib.pick(9, n, a, a) == 9 + n


def still_works(lib):
    rng = np.random.default_rng(7)
    a = rng.integers(-100, 100, 257).astype(np.int32)
    before = inline_calls()
    for _ in range(3):
        assert lib.sum(a.size, a) == int(a.sum())
    assert inline_calls() > before, "calls after the first of a short function run inline"
    assert not acc.is_present(a)


def test_short_calls_run_inline_first_calls_do_not(lib):
    s0 = _core.call_stats()
    f = acc.c("int add3(int a, int b, int c) { return a + b + c; }\n", name="add3.c")
    assert f.add3(1, 2, 3) == 6
    s1 = _core.call_stats()
    assert s1["worker"] == s0["worker"] + 1 and s1["inline"] == s0["inline"], "a first call goes to a worker thread"
    # the call's size is the sum of its integers' magnitudes: no bigger than the first's
    for i in range(50):
        x, y, z = [(1, 2, 3), (3, -2, 1), (-1, -2, -3)][i % 3]
        assert f.add3(x, y, z) == x + y + z
    s2 = _core.call_stats()
    # (a call preempted for over 2 ms on a busy machine sends the next one to a worker)
    assert s2["inline"] >= s1["inline"] + 45
    # a bigger call than any short one so far is not known to be short
    assert f.add3(1 << 40 >> 20, 0, 0) == 1 << 20
    assert _core.call_stats()["worker"] == s2["worker"] + 1


@pytest.mark.parametrize(
    "how, exc, check",
    [
        (1, acc.ProgramExit, lambda e: e.code == 11),
        (2, acc.ProgramAbort, lambda e: "abort" in e.message),
        (3, acc.ProgramAbort, lambda e: "how != 3" in e.message and "inline.c:" in e.message),
        (4, acc.NotPresentError, lambda e: e.var == "b[0:n]" and e.loc == "inline.c:13"),
        (5, acc.ProgramExit, lambda e: e.code == 13),
    ],
)
def test_inline_early_end_raises_and_the_process_goes_on(lib, how, exc, check):
    n = 16
    warm(lib, n)
    a = np.ones(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    for _attempt in range(5):  # until the failing call ran inline (a busy machine may preempt one)
        s0 = _core.call_stats()
        with pytest.raises(exc) as ei:
            lib.pick(how, n, a, b)
        s1 = _core.call_stats()
        assert check(ei.value), ei.value
        if s1["inline"] == s0["inline"] + 1:
            break
        warm(lib, n)
    assert s1["inline"] == s0["inline"] + 1, "the failing call ran inline"
    assert s1["abandoned_stacks"] == s0["abandoned_stacks"] + 1
    assert not acc.is_present(a), "the data region of the dead call must end"
    still_works(lib)
    assert lib.pick(0, n, a, b) == n


def test_many_inline_failures_do_not_exhaust_anything(lib):
    warm(lib)
    a = np.ones(16, dtype=np.float32)
    s0 = _core.call_stats()
    for i in range(200):
        with pytest.raises(acc.ProgramExit):
            lib.pick(1, 16, a, a)
    # (most ran inline; a call preempted for over 2 ms sends the next one to a worker)
    assert _core.call_stats()["abandoned_stacks"] >= s0["abandoned_stacks"] + 150
    still_works(lib)


def test_a_16_mib_stack_array_inline(lib):
    want = sum(float(i % 7) * 3 for i in range(0, 2 * 1024 * 1024, 512))
    before = inline_calls()
    for _ in range(10):
        assert lib.big_stack(3) == want
    # the first touch of the pages may make a call long (then the next goes to a worker)
    assert inline_calls() >= before + 5


def test_inline_calls_from_several_threads(lib):
    rng = np.random.default_rng(11)
    arrays = [rng.integers(0, 1000, 1000).astype(np.int32) for _ in range(4)]
    errors = []

    def work(a):
        try:
            for _ in range(200):
                assert lib.sum(a.size, a) == int(a.sum())
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(a,)) for a in arrays]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_fortran_stop_inline():
    m = acc.fortran("subroutine halt2(n)\n  integer, value :: n\n  if (n > 0) stop 4\nend subroutine\n")
    for _ in range(3):
        m.halt2(-1)  # as big as halt2(1): the call's size counts |n|
    for _attempt in range(5):  # until the call ran inline (a busy machine may preempt one)
        before = _core.call_stats()
        with pytest.raises(acc.ProgramExit) as ei:
            m.halt2(1)
        assert ei.value.code == 4
        if _core.call_stats()["abandoned_stacks"] == before["abandoned_stacks"] + 1:
            break
        m.halt2(-1)
    assert _core.call_stats()["abandoned_stacks"] == before["abandoned_stacks"] + 1
    m.halt2(0)


def test_knob_turns_inline_calls_off():
    code = (
        "import numpy as np, accjit as acc\n"
        "from accjit import _core\n"
        "f = acc.c('int id(int v) { return v; }\\n', name='id.c')\n"
        "assert all(f.id(7 - i % 3) == 7 - i % 3 for i in range(100))\n"
        "s = _core.call_stats(); print(s['inline'], s['worker'])\n"
    )
    env = dict(os.environ, ACCJIT_CALL_INLINE="0")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["0", "100"]
    env["ACCJIT_CALL_INLINE"] = "1"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    inline, worker = map(int, r.stdout.split())
    # a call preempted for over 2 ms on a busy machine sends the next one to a worker
    assert inline + worker == 100 and inline >= 90, r.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's /proc")
def test_the_first_call_finds_a_worker_started_at_import():
    # caller::prestart: the worker thread of a process's first call is
    # started when accjit is imported, and the first call uses it.
    code = (
        "import glob, accjit as acc\n"
        "from accjit import _core\n"
        "def workers():\n"
        "    return sum(open(p).read().strip() == 'accjit-call' for p in glob.glob('/proc/self/task/*/comm'))\n"
        "before = workers()\n"
        "f = acc.c('int id(int v) { return v; }\\n', name='id.c')\n"
        "assert f.id(5) == 5\n"
        "print(before, workers(), _core.call_stats()['worker'])\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1", "1", "1"], r.stdout


def test_scalar_conversions_at_the_edges():
    lib = acc.c(
        "signed char c8(signed char v) { return v; }\n"
        "unsigned short u16(unsigned short v) { return v; }\n"
        "int i32(int v) { return v; }\n"
        "unsigned long u64(unsigned long v) { return v; }\n"
        "float f32(float v) { return v; }\n"
        "double f64(double v) { return v; }\n"
        "_Bool b(_Bool v) { return v; }\n",
        name="edges.c",
    )
    for fn, lo, hi in [(lib.c8, -128, 127), (lib.u16, 0, 65535), (lib.i32, -(2**31), 2**31 - 1), (lib.u64, 0, 2**64 - 1)]:
        for _ in range(3):  # first call on a worker thread, then inline
            assert fn(lo) == lo and fn(hi) == hi
        with pytest.raises(OverflowError, match=r"out of range"):
            fn(hi + 1)
        with pytest.raises(OverflowError, match=r"out of range"):
            fn(lo - 1)
        with pytest.raises(TypeError, match=r"expects an integer, got float"):
            fn(1.0)
        assert fn(np.int16(7)) == 7 and fn(True) == 1
    for _ in range(3):
        assert lib.f32(1.5) == 1.5 and lib.f64(-2.25) == -2.25
    assert lib.f32(float("inf")) == float("inf") and np.isnan(lib.f32(float("nan")))
    assert lib.f32(7) == 7.0 and lib.f64(np.float32(0.5)) == 0.5
    with pytest.raises(OverflowError, match=r"out of range for float"):
        lib.f32(1e39)
    assert lib.f64(1e300) == 1e300
    with pytest.raises(TypeError, match=r"expects a real number, got str"):
        lib.f64("1")
    assert lib.b(5) is True and lib.b(0) is False


def test_functions_are_attributes_and_keywords_bind():
    lib = acc.c("int ir(int v) { return v + 1; }\nint sub(int a, int b) { return a - b; }\n", name="attrs.c")
    assert "sub" in vars(lib), "a plain attribute: no __getattr__ call per access"
    assert callable(lib.ir) and isinstance(lib.ir(), str), "the method keeps its name"
    assert lib["ir"](4) == 5
    assert isinstance(lib.sub, acc.CFunction) and isinstance(lib.sub, _core.Function)
    assert lib.sub(7, 2) == 5 and lib.sub(b=2, a=7) == 5 and lib.sub(7, b=3) == 4
    with pytest.raises(TypeError, match=r"missing argument\(s\) b"):
        lib.sub(a=1)
    with pytest.raises(TypeError, match=r"takes 2 arguments \(3 given\)"):
        lib.sub(1, 2, 3)
    assert lib.sub.__name__ == "sub" and "int sub(int a, int b)" in lib.sub.__doc__


def test_fortran_procedures_are_attributes_and_keywords_bind():
    m = acc.fortran(
        "integer function fsub(a, b)\n  integer, value :: a, b\n  fsub = a - b\nend function\n"
        "real(8) function twice(x)\n  real(8), value :: x\n  twice = 2 * x\nend function\n",
        name="fattrs.f90",
    )
    assert "fsub" in vars(m), "a plain attribute: no __getattr__ call per access"
    assert isinstance(m.fsub, acc.FProcedure) and isinstance(m.fsub, _core.Procedure)
    for _ in range(3):  # first call on a worker thread, then inline
        assert m.fsub(7, 2) == 5 and m.FSUB(b=2, a=7) == 5 and m.fsub(7, B=3) == 4
        assert m.twice(1.25) == 2.5 and m.twice(3) == 6.0
    with pytest.raises(TypeError, match=r"missing argument\(s\) b"):
        m.fsub(a=1)
    with pytest.raises(TypeError, match=r"takes 2 arguments \(3 given\)"):
        m.fsub(1, 2, 3)
    with pytest.raises(TypeError, match=r"expects an integer"):
        m.fsub(1.5, 2)
