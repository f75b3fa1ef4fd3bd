"""The compile report (rust/driver/src/report.rs, python/accjit/_report.py):
the same data for C, Fortran and Python kernels; text from `accjit run
--info` / ACCJIT_INFO=1 on stderr only when asked; HTML tables."""

import os
import subprocess
import sys

import numpy as np
import pytest

import accjit as acc

C_SRC = r"""
#include <stdio.h>
#include <stdlib.h>
#define N 1000
float a[N], b[N];
int main(void) {
    srand(42);
    for (int i = 0; i < N; i++) { a[i] = rand() % 100; b[i] = 0; }
    float sum = 0;
    #pragma acc parallel loop reduction(+:sum) vector_length(64)
    for (int i = 0; i < N; i++) sum += a[i];
    #pragma acc kernels
    for (int i = 1; i < N; i++) b[i] = b[i - 1] + a[i];
    float check = 0;
    for (int i = 0; i < N; i++) check += a[i];
    if (check != sum || b[N - 1] != check - a[0]) { printf("FAIL\n"); return 1; }
    printf("ok\n");
    return 0;
}
"""


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    p = tmp_path_factory.mktemp("rep") / "rep.c"
    p.write_text(C_SRC)
    return p


def _run(args, env_extra=None):
    env = dict(os.environ, ACC_DEVICE_TYPE="multicore")
    env.pop("ACCJIT_INFO", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "accjit", *args], capture_output=True, text=True, env=env, timeout=120)


def test_run_info_prints_the_report_on_stderr(prog):
    r = _run(["run", "--info", str(prog)])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "ok\n"
    err = r.stderr
    assert "rep.c for multicore: 2 kernels (gangs on the pool's " in err and "compiled in" in err
    assert "rep.c:10: parallel region" in err and "vector_length(64)" in err
    assert "rep.c:11: loop gang vector(64) reduction(+:sum)" in err
    assert "rep.c:12: kernels region -> kernel main_kernels_1, gangs(1)" in err  # its only loop stayed sequential
    assert "rep.c:13: loop seq -- the compiler kept it sequential" in err and "`b`" in err
    assert "copy(a)          implicit: an array the region uses with no clause" in err or "implicit: an array the region uses with no clause" in err


def test_accjit_info_env_and_silence_by_default(prog):
    quiet = _run(["run", str(prog)])
    assert quiet.returncode == 0 and quiet.stdout == "ok\n" and quiet.stderr == "", quiet.stderr
    loud = _run(["run", str(prog)], {"ACCJIT_INFO": "1"})
    assert loud.returncode == 0 and "parallel region" in loud.stderr and "loop seq" in loud.stderr
    assert _run(["run", str(prog)], {"ACCJIT_INFO": "0"}).stderr == ""


def test_cmodule_report_dict_text_and_html():
    lib = acc.c(r"""
    void scale(int n, double s, double *x) {
        #pragma acc parallel loop gang vector copy(x[0:n]) num_gangs(4)
        for (int i = 0; i < n; i++) x[i] *= s;
    }""", device_type="host")
    rep = lib.report()
    (r,) = rep["regions"]
    assert r["kind"] == "parallel" and r["function"] == "scale" and r["launch"] == [("num_gangs", "4")]
    got = {(c["clause"], c["var"]): c for c in r["clauses"]}
    assert got[("copy", "x[0:n]")]["implicit"] is False
    assert got[("firstprivate", "s")]["implicit"] is True
    (lp,) = r["loops"]
    assert lp["schedule"] == "gang vector" and lp["reason"] == "as written"
    assert set(rep["timings"]) == {"parse", "lower", "codegen", "total"} and rep["timings"]["total"] > 0
    text = str(rep)
    assert "parallel region -> kernel scale_parallel_0, num_gangs(4)" in text
    html = rep._repr_html_()
    assert '<table class="accjit-region"' in html and "<b>gang vector</b>" in html and "firstprivate(s)" in html
    x = np.random.default_rng(1).random(100)
    want = x * 3
    # The module has host code only: call it with host current (the suite
    # may run with ACC_DEVICE_TYPE=nvidia).
    before = acc.get_device_type()
    acc.set_device_type("host")
    try:
        lib.scale(x.size, 3.0, x)
    finally:
        acc.set_device_type(before)
    assert np.allclose(x, want)


def test_fortran_report_is_the_same_mechanism():
    m = acc.fortran("""
subroutine prefix(a, b, n)
  integer, value :: n
  real(8) :: a(n), b(n)
  integer :: i
  !$acc kernels
  do i = 2, n
    b(i) = b(i-1) + a(i)
  end do
  !$acc end kernels
end subroutine
""", device_type="host")
    rep = m.report()
    (r,) = rep["regions"]
    assert r["kind"] == "kernels"
    (lp,) = r["loops"]
    # the dependence message names the dummy by its Fortran name (the IR's is `arg1`)
    assert lp["schedule"] == "seq" and "`b` is written at an element that other iterations" in lp["reason"]
    got = {(c["clause"], c["var"]): c for c in r["clauses"]}
    assert got[("copy", "b")]["implicit"] and "no clause" in got[("copy", "b")]["why"]
    assert got[("copyin", "a")]["implicit"], got
    assert not any(c["var"].startswith("arg") for c in r["clauses"]), r["clauses"]
    assert "loop seq -- the compiler kept it sequential" in str(rep)


def test_nvidia_report_names_thread_blocks():
    """Compiled for nvidia (no GPU needed: the PTX is made here), each region
    says the thread block its kernel launches with: the back end's choice,
    or vector_length x num_workers as given."""
    import re

    lib = acc.c(r"""
    void f(int n, float *x) {
        #pragma acc parallel loop copy(x[0:n])
        for (int i = 0; i < n; i++) x[i] += 1;
        #pragma acc parallel loop gang worker num_workers(2) vector_length(64) copy(x[0:n])
        for (int i = 0; i < n; i++) x[i] += 1;
    }""", device_type="nvidia")
    first, second = lib.report()["regions"]
    blocks = dict(first["launch"])
    assert re.fullmatch(r"\d+x1", blocks["thread block"]), first["launch"]
    assert dict(second["launch"])["thread block"] == "64x2"
    assert "thread block: 64x2" in str(lib.report())


def test_fortran_internal_procedures_by_source_names():
    """Kernels go to their own region whatever the order of the procedures
    in the file; dummies (IR parameters `arg0`, ...) are shown by the names
    the clauses give them, and an assumed-shape array's extents are left out."""
    from pathlib import Path

    corpus = Path(__file__).resolve().parent / "conformance" / "fortran"
    rep = acc.fortran_files([corpus / "104_nested_data_present.f90"], device_type="host").report()
    by_line = {r["line"]: r for r in rep["regions"]}
    inner, outer = by_line[32], by_line[14]
    assert inner["function"].endswith("scale_present") and inner["kernels"] == ["nested_data_present__scale_present_parallel_0"]
    assert outer["kernels"] == ["main_parallel_0"]
    assert {(c["clause"], c["var"], c["implicit"]) for c in inner["clauses"]} == {
        ("present", "v", False), ("firstprivate", "m", True), ("firstprivate", "f", True)}
    rep = acc.fortran_files([corpus / "038_assumed_shape.f90"], device_type="host").report()
    import re

    assert not re.search(r"\barg\d+\b", str(rep)), str(rep)


@acc.kernels
def _prefix_kernel(x, s):
    for i in range(1, len(x)):
        s[i] = s[i - 1] + x[i]


def test_python_kernel_inspect_renders_the_same_html():
    x = np.random.default_rng(3).random(100)
    s = np.zeros_like(x)
    s[0] = x[0]
    _prefix_kernel(x, s)
    assert np.allclose(s, np.cumsum(x))
    info = _prefix_kernel.inspect()
    html = info._repr_html_()
    assert '<table class="accjit-region"' in html and "<b>kernels region</b>" in html
    assert '<tr class="accjit-loop">' in html and "<b>seq</b>" in html and "kept it sequential" in html
    assert "for i in range(1, len(x)):" in html
