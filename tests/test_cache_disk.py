"""The disk cache of whole compiled programs (rust/driver/src/disk.rs): a
program compiled in one process is loaded, not compiled, in the next one
with the same source and options, and behaves the same; anything that
changes the program (a header, a define) or damages the file is a miss.

Each case runs child processes that share a temporary ACCJIT_CACHE_DIR and
print their results and whether the code came from the disk cache.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

import accjit as acc

C_SRC = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "params.h"
static const char *labels[] = {"low", "high"};
double scale = 1.5;
#pragma acc declare copyin(scale)
int label_len(int k) { return (int)strlen(labels[k & 1]); }
double norm_sum(int n, const double *x) {
    double s = 0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
    for (int i = 0; i < n; i++) s += sqrt(x[i] * x[i] + 1.0) * scale + OFFSET;
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
int say(int k) { printf("hello %s %d\n", labels[k & 1], k); fflush(stdout); return k * 2; }
"""

C_CHILD = r"""
import json, sys
import numpy as np
import accjit as acc
src, inc, defines = open(sys.argv[1]).read(), sys.argv[2], json.loads(sys.argv[3])
lib = acc.c(src, name="prog.c", include_dirs=[inc], defines=defines)
x = np.linspace(-2.0, 3.0, 1000)
y = np.zeros(257)
lib.fill(257, y)
h = np.zeros(9)
lib.fill_host(9, h)
out = {"norm": lib.norm_sum(1000, x), "label": [lib.label_len(0), lib.label_len(1)], "fill": y.tolist(), "host": h.tolist(),
       "say": lib.say(3), "disk": lib.report()["from_disk_cache"], "headline": lib.report().headline()}
print("RESULT " + json.dumps(out))
"""

F_SRC = """
module stats
contains
  subroutine axpy(n, a, x, y)
    integer, intent(in) :: n
    real(8), intent(in) :: a, x(n)
    real(8), intent(inout) :: y(n)
    integer :: i
    !$acc parallel loop copyin(x) copy(y)
    do i = 1, n
      y(i) = y(i) + a * x(i)
    end do
  end subroutine
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
"""

F_CHILD = r"""
import json, sys
import numpy as np
import accjit as acc
m = acc.fortran(open(sys.argv[1]).read(), name="stats.f90")
x = np.arange(1.0, 101.0)
y = np.ones(100)
m.axpy(100, 0.5, x, y)
print("RESULT " + json.dumps({"y": y.tolist(), "total": m.total(100, x), "disk": m.report()["from_disk_cache"]}))
"""

PY_CHILD = r"""
import json
import numpy as np
import accjit as acc

@acc.parallel
def smooth(x, y):
    for i in acc.loop(len(x) - 2):
        y[i + 1] = 0.25 * x[i] + 0.5 * x[i + 1] + 0.25 * x[i + 2]

@acc.parallel
def dot(x, y):
    s = 0.0
    for i in acc.loop(len(x), reduction="+:s"):
        s += x[i] * y[i]
    return s

x = np.sin(np.arange(200.0) * 0.37)
y = np.zeros(200)
smooth(x, y)
d = dot(x, y)
print("RESULT " + json.dumps({"y": y.tolist(), "dot": d, "disk": [smooth.inspect()["from_disk_cache"], dot.inspect()["from_disk_cache"]]}))
"""


@pytest.fixture
def env(tmp_path):
    e = dict(os.environ)
    e["ACCJIT_CACHE_DIR"] = str(tmp_path / "cache")
    e["ACC_DEVICE_TYPE"] = "multicore"
    for k in ("ACCJIT_CACHE", "ACCJIT_CACHE_MAX_MB"):
        e.pop(k, None)
    return e


def run_child(tmp_path, child, args, env, expect_stderr=""):
    script = tmp_path / "child.py"
    script.write_text(child)
    p = subprocess.run([sys.executable, str(script), *map(str, args)], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    if not expect_stderr:
        assert p.stderr == "", p.stderr
    else:
        assert p.stderr.count(expect_stderr) == 1, p.stderr
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
    assert len(lines) == 1, p.stdout
    return json.loads(lines[0][len("RESULT "):]), p.stdout


def prog_files(d):
    return sorted(p for p in d.iterdir() if p.name.startswith("prog-") and p.name.endswith(".bin")) if d.is_dir() else []


@pytest.fixture
def c_prog(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "params.h").write_text("#define OFFSET 0.25\n")
    src = tmp_path / "prog.c"
    src.write_text(C_SRC)
    return src, inc


def c_run(tmp_path, c_prog, env, defines=None, expect_stderr=""):
    src, inc = c_prog
    return run_child(tmp_path, C_CHILD, [src, inc, json.dumps(defines or {})], env, expect_stderr)


def without_disk(r):
    """The results, the reduction rounded (multicore gangs combine their
    partial sums in the order they finish: the last bit may differ)."""
    out = {k: v for k, v in r.items() if k not in ("disk", "headline")}
    out["norm"] = round(out["norm"], 9)
    return out


def test_c_program_from_the_disk_cache_gives_the_same_results(tmp_path, c_prog, env):
    first, out1 = c_run(tmp_path, c_prog, env)
    assert first["disk"] is False
    assert "hello high 3" in out1
    cache = tmp_path / "cache"
    assert len(prog_files(cache)) == 1
    second, out2 = c_run(tmp_path, c_prog, env)
    assert second["disk"] is True
    assert "from the disk cache" in second["headline"] and "from the disk cache" not in first["headline"]
    assert without_disk(first) == without_disk(second)
    assert "hello high 3" in out2
    # the host fallback (`if(0)`) and the kernels both ran
    assert second["host"] == [2.0 * i for i in range(9)]
    assert abs(second["fill"][5] - (__import__("math").sin(0.5) + __import__("math").cos(1.0))) < 1e-12
    # the cache commands count and clear the program entries
    info = subprocess.run([sys.executable, "-m", "accjit", "cache", "info"], capture_output=True, text=True, env=env)
    assert info.returncode == 0 and str(cache) in info.stdout
    e = dict(env)
    cleared = subprocess.run([sys.executable, "-c", "import accjit as acc, json; print(json.dumps(acc.cache_clear()))"], capture_output=True, text=True, env=e)
    assert json.loads(cleared.stdout)["entries"] == 1
    assert prog_files(cache) == []
    third, _ = c_run(tmp_path, c_prog, env)
    assert third["disk"] is False and without_disk(third) == without_disk(first)


def test_a_changed_header_or_define_is_a_miss(tmp_path, c_prog, env):
    first, _ = c_run(tmp_path, c_prog, env)
    assert c_run(tmp_path, c_prog, env)[0]["disk"] is True
    _, inc = c_prog
    (inc / "params.h").write_text("#define OFFSET 0.5\n")
    changed, _ = c_run(tmp_path, c_prog, env)
    assert changed["disk"] is False
    assert abs(changed["norm"] - first["norm"] - 0.25 * 1000) < 1e-6
    assert c_run(tmp_path, c_prog, env)[0]["disk"] is True
    defined, _ = c_run(tmp_path, c_prog, env, defines={"UNUSED_FLAG": "1"})
    assert defined["disk"] is False
    assert without_disk(defined) == without_disk(changed)
    assert len(prog_files(tmp_path / "cache")) == 3


def test_a_corrupt_or_truncated_file_is_a_miss(tmp_path, c_prog, env):
    first, _ = c_run(tmp_path, c_prog, env)
    (f,) = prog_files(tmp_path / "cache")
    whole = f.read_bytes()
    for damaged in (whole[: len(whole) // 2], whole[:-1], whole[:60] + bytes([whole[60] ^ 0xFF]) + whole[61:]):
        f.write_bytes(damaged)
        again, _ = c_run(tmp_path, c_prog, env)
        assert again["disk"] is False
        assert without_disk(again) == without_disk(first)
        assert f.read_bytes() == whole  # rewritten by the miss
    assert c_run(tmp_path, c_prog, env)[0]["disk"] is True


def test_an_unwritable_directory_warns_once_and_works(tmp_path, c_prog, env):
    # a directory under a regular file cannot be created (even by root)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    env = dict(env, ACCJIT_CACHE_DIR=str(blocker / "cache"))
    first, _ = c_run(tmp_path, c_prog, env, expect_stderr="accjit: warning: cannot write the kernel cache")
    assert first["disk"] is False and first["host"] == [2.0 * i for i in range(9)]
    assert first["say"] == 6


def test_accjit_cache_0_turns_the_disk_cache_off(tmp_path, c_prog, env):
    off = dict(env, ACCJIT_CACHE="0")
    c_run(tmp_path, c_prog, off)
    assert prog_files(tmp_path / "cache") == []
    c_run(tmp_path, c_prog, env)
    assert c_run(tmp_path, c_prog, off)[0]["disk"] is False
    assert c_run(tmp_path, c_prog, env)[0]["disk"] is True


def test_fortran_program_from_the_disk_cache(tmp_path, env):
    src = tmp_path / "stats.f90"
    src.write_text(F_SRC)
    first, _ = run_child(tmp_path, F_CHILD, [src], env)
    second, _ = run_child(tmp_path, F_CHILD, [src], env)
    assert (first["disk"], second["disk"]) == (False, True)
    assert first["y"] == second["y"] and first["total"] == second["total"]
    assert second["y"][9] == 1.0 + 0.5 * 10.0
    assert second["total"] == sum(float(i * i) for i in range(1, 101))


def test_python_kernels_from_the_disk_cache(tmp_path, env):
    first, _ = run_child(tmp_path, PY_CHILD, [], env)
    second, _ = run_child(tmp_path, PY_CHILD, [], env)
    assert first["disk"] == [False, False] and second["disk"] == [True, True]
    assert first["y"] == second["y"] and first["dot"] == pytest.approx(second["dot"], rel=1e-12)
    assert first["y"][0] == 0.0 and first["y"][5] != 0.0


@pytest.mark.skipif(os.environ.get("ACCJIT_CACHE", "").strip().lower() in ("0", "off", "no", "false"),
                    reason="ACCJIT_CACHE=0: this process's disk cache is off")
def test_in_process_recompile_after_clear_loads_from_disk(tmp_path, monkeypatch):
    # the directory of this process's disk cache is fixed at its first use
    # (conftest: a session directory); clearing the in-process cache makes
    # the next compile of the same source a disk hit
    src = "int twice(int x) { return 2 * x; }\n/* test_in_process_recompile_after_clear_loads_from_disk */\n"
    a = acc.c(src, name="twice.c")
    acc.clear_cache()
    b = acc.c(src, name="twice.c")
    assert b.report()["from_disk_cache"] is True
    assert a.twice(21) == b.twice(21) == 42
