"""The Python-kernel API and dispatcher (docs/python-kernels.md): decorators,
specialisation per argument types and device type, ahead-of-time signatures,
inspect(), argument errors, results, py_func equivalence, Ctrl-C, and the
documentation's examples. The kernel language itself is covered by
tests/pykernels/."""

import linecache
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import accjit as acc

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def multicore():
    old = acc.get_device_type()
    acc.set_device_type("multicore")
    yield
    acc.set_device_type(old)


@acc.parallel
def saxpy(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.parallel
def scale2d(a, s):
    n, m = a.shape
    for i in acc.loop(n):
        for j in range(m):
            a[i, j] = a[i, j] * s


@acc.jit
def two(a, b):
    return a + b, a * b


def _rng():
    return np.random.default_rng(42)


# --- decorators ------------------------------------------------------------------------------


def test_decorators_bare_and_with_clauses_make_kernels():
    def f(x):
        """doc of f"""
        for i in acc.loop(len(x)):
            x[i] = 1

    for deco, kind in [(acc.parallel, "parallel"), (acc.kernels, "kernels"), (acc.serial, "serial"),
                       (acc.parallel(num_gangs=4, vector_length=32), "parallel"), (acc.kernels(), "kernels"),
                       (acc.serial(async_=1), "serial"), (acc.jit, "jit"), (acc.jit(), "jit")]:
        k = deco(f)
        assert isinstance(k, acc.Kernel)
        assert k._accjit_kind == kind
        assert k.py_func is f and k.__wrapped__ is f
        assert k.__name__ == "f" and k.__doc__ == "doc of f" and k.__module__ == __name__
        assert k.signatures == []
        assert f"@acc.{kind}" in repr(k) and "0 signatures" in repr(k)


def test_routine_levels():
    def g(v):
        return v + 1

    assert acc.routine(g)._accjit_level == "seq"
    for level in ("seq", "vector", "worker", "gang"):
        assert acc.routine(level)(g)._accjit_level == level
        assert acc.routine(**{level: True})(g)._accjit_level == level
    assert acc.routine(g)._accjit_kind == "routine"
    with pytest.raises(TypeError, match="level"):
        acc.routine("fast")(g)
    with pytest.raises(TypeError, match="one level"):
        acc.routine(seq=True, vector=True)


def test_unknown_clause_is_a_type_error_with_the_spelling():
    with pytest.raises(TypeError, match="async_"):
        acc.parallel(**{"async": 1})
    with pytest.raises(TypeError, match="num_gang'.*clauses: .*num_gangs"):
        acc.parallel(num_gang=4)
    with pytest.raises(TypeError, match="unexpected clause 'num_gangs'"):
        acc.serial(num_gangs=2)  # serial has one gang


def test_constructs_are_context_managers_and_plain_python_runs():
    x = np.zeros(5)
    with acc.parallel(num_gangs=2, copy=["x"]):
        for i in acc.loop(range(5), gang=True):
            x[i] = i
    with acc.kernels():
        pass
    with acc.host_data(use_device=[x]):
        pass
    assert list(x) == [0, 1, 2, 3, 4]
    assert list(acc.loop(3)) == [0, 1, 2] and list(acc.loop(1, 7, 2)) == [1, 3, 5]
    assert list(acc.loop(range(2), range(2), collapse=2)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert acc.cache(x[0:2]) is None


# --- calls and specialisations ---------------------------------------------------------------


def test_saxpy_matches_numpy_and_py_func():
    rng = _rng()
    x = rng.random(1000).astype(np.float32)
    y = rng.random(1000).astype(np.float32)
    want = y.copy()
    saxpy.py_func(np.float32(2.5), x, want)
    got = y.copy()
    assert saxpy(np.float32(2.5), x, got) is None
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(got, 2.5 * x + y, rtol=1e-6)


def test_one_specialisation_per_type_tuple_and_device():
    @acc.parallel
    def inc(x):
        for i in acc.loop(len(x)):
            x[i] = x[i] + 1

    a32, a64, ai = np.zeros(4, np.float32), np.zeros(4), np.zeros(4, np.int32)
    inc(a32)
    inc(a64)
    inc(a32)
    inc(ai)
    assert inc.signatures == [("float32[:]",), ("float64[:]",), ("int32[:]",)]
    assert list(a32) == [2] * 4 and list(a64) == [1] * 4 and list(ai) == [1] * 4
    before = acc.cache_stats()["compilations"]
    for _ in range(5):
        inc(a64)
    assert acc.cache_stats()["compilations"] == before, "a cached call compiles nothing"
    acc.set_device_type("host")
    inc(a64)
    assert list(a64) == [7] * 4
    assert ("host", ("float64[:]",)) in inc._signatures()
    assert inc.signatures == [("float32[:]",), ("float64[:]",), ("int32[:]",)], "devices share a spelling"


def test_layouts_are_part_of_the_key_and_all_compute_right():
    base = np.arange(24.0).reshape(4, 6)
    views = [base.copy(), np.asfortranarray(base), base.copy()[:, ::2], base.copy()[::-1, ::-3]]
    for v in views:
        want = v * 3
        scale2d(v, 3)
        np.testing.assert_array_equal(v, want)
    sigs = scale2d.signatures
    assert ("float64[:, :]", "int64") in sigs
    assert ("float64[:, :] F", "int64") in sigs
    assert ("float64[:, :] strided", "int64") in sigs
    assert len(sigs) == 3, "both strided views share one specialisation"


def test_scalars_of_every_kind_and_results():
    assert two(3, 4) == (7, 12)
    assert two(3, 4.5) == (7.5, 13.5)
    assert two(1 + 2j, 2) == (3 + 2j, 2 + 4j)
    r = two(np.float32(1.5), np.float32(2))
    assert r == (3.5, 3.0) and all(isinstance(v, float) for v in r)
    assert two(True, False) in ((1, 0), (True, False))
    assert ("int64", "int64") in two.signatures and ("complex128", "int64") in two.signatures
    assert ("float32", "float32") in two.signatures


def test_keywords_bind_like_python():
    @acc.jit
    def axpb(a, x, b):
        return a * x + b

    assert axpb(2.0, 3.0, 1.0) == 7.0
    assert axpb(2.0, b=0.5, x=3.0) == 6.5
    assert axpb(a=1.0, x=1.0, b=1.0) == 2.0
    with pytest.raises(TypeError, match=r"axpb\(\) missing 1 required positional argument: 'b'"):
        axpb(2.0, 1.0)
    with pytest.raises(TypeError, match=r"axpb\(\) takes 3 positional arguments but 4 were given"):
        axpb(1.0, 2.0, 3.0, 4.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'c'"):
        axpb(1.0, 2.0, c=3.0)
    with pytest.raises(TypeError, match="multiple values for argument 'a'"):
        axpb(1.0, 2.0, 3.0, a=3.0)


# --- argument errors -------------------------------------------------------------------------


def test_bad_arguments_say_what_was_expected():
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match=r"saxpy\(\): argument 'x'.*datetime64.*cannot be passed"):
        saxpy(1.0, np.zeros(4, "datetime64[D]"), x)
    with pytest.raises(TypeError, match=r"argument 'a': float16 is not supported"):  # float16 arrays are storage; scalars are not
        saxpy(np.float16(1), x, x)
    with pytest.raises(TypeError, match=r"argument 'x': a list cannot be passed.*np.asarray"):
        saxpy(1.0, [1.0, 2.0], x)
    with pytest.raises(TypeError, match=r"argument 'a': a str cannot be passed"):
        saxpy("2", x, x)
    with pytest.raises(TypeError, match=r"object array cannot be passed|a \|O array cannot be passed"):
        saxpy(1.0, np.zeros(4, dtype=object), x)
    with pytest.raises(ValueError, match="byte order"):
        saxpy(1.0, np.zeros(4, dtype=">f4"), x)
    with pytest.raises(OverflowError, match="does not fit in int64"):
        two(2**70, 1)
    assert saxpy.signatures == [] or all("float16" not in s for sig in saxpy.signatures for s in sig)


def test_compile_errors_point_at_the_users_line():
    @acc.parallel
    def bad(x):
        for i in acc.loop(len(x)):
            x[i] = undefined_name_here  # noqa: F821

    with pytest.raises(acc.CompileError) as e:
        bad(np.zeros(3))
    assert e.value.file == __file__
    line = bad.py_func.__code__.co_firstlineno + 3  # the decorator's line, def, for, the assignment
    assert e.value.line == line, e.value.rendered
    assert "undefined_name_here" in e.value.rendered
    assert bad.signatures == [], "a failed compilation leaves no signature"


# --- ahead of time ---------------------------------------------------------------------------


def test_compile_ahead_of_time_from_spellings_and_samples():
    @acc.parallel
    def add(x, y, s):
        for i in acc.loop(len(x)):
            y[i] = x[i] + s

    assert add.compile(("float64[:] readonly", "float64[:]", "float64")) == "float64[:] readonly, float64[:], float64"
    assert add.compile("float32[:], float32[:], float32") == "float32[:], float32[:], float32"
    assert add.compile([np.zeros(3, np.int32), np.zeros(3, np.int32), int]) == "int32[:], int32[:], int64"
    assert add.compile((np.zeros(2), "float64[:]", np.dtype("float64"))) == "float64[:], float64[:], float64"
    assert add.compile(("int8[:]", "int8[:]", np.int8)) == "int8[:], int8[:], int8"
    assert len(add.signatures) == 5
    before = acc.cache_stats()["compilations"]
    x = np.arange(3.0)
    x.flags.writeable = False
    y = np.zeros(3)
    add(x, y, 1.5)
    assert acc.cache_stats()["compilations"] == before, "the call found the ahead-of-time specialisation"
    assert list(y) == [1.5, 2.5, 3.5]
    for bad in ("float64[:] Z", "floaty[:]", "float64[:] F", "nonsense"):
        with pytest.raises(TypeError):
            add.compile((bad, "float64[:]", "float64"))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        add.compile(("float64[:]",))


def test_fortran_and_strided_spellings_compile():
    assert scale2d.compile(("float32[:, :] F", "float32")) == "float32[:, :] F, float32"
    assert saxpy.compile(("float32", "float32[:] strided readonly", "float32[:]")) == "float32, float32[:] strided readonly, float32[:]"
    with pytest.raises(acc.CompileError, match="read-only"):
        scale2d.compile(("float32[:, :] readonly", "float32"))


# --- inspect ---------------------------------------------------------------------------------


def test_inspect_reports_ir_schedule_data_and_code():
    with pytest.raises(ValueError, match="not compiled yet"):
        acc.parallel(saxpy.py_func).inspect()
    info = saxpy.inspect(("float32", "float32[:]", "float32[:]"), code=True)
    assert info["signature"] == ["float32", "float32[:]", "float32[:]"]
    assert info["device_type"] == "multicore"
    assert "x.data" in info["entry"] and "y.shape[0]" in info["entry"]
    assert info["results"] == []
    assert len(info["loops"]) == 1
    lp = info["loops"][0]
    assert lp["line"] == saxpy.py_func.__code__.co_firstlineno + 2
    assert "gang" in lp["schedule"] and lp["reason"]
    assert len(info["regions"]) == 1 and info["regions"][0]["kind"] == "parallel"
    for c in info["regions"][0]["clauses"]:
        assert set(c) == {"clause", "var", "implicit", "why"} and c["why"]
    assert "parallel" in info["ir"] and info["lowered_ir"] != info["ir"]
    assert "function" in info["clif"]
    text = str(info)
    assert text.startswith("saxpy(float32, float32[:], float32[:]) on multicore")
    assert f"line {lp['line']}: loop {lp['schedule']}" in text
    assert info["compile_seconds"] > 0 and info["kernels"] == 1


@acc.jit
def jacobi_inspected(a, b, iters):
    n, m = a.shape
    c = 0.25
    err = 0.0
    with acc.data(copy=[a], create=[b]):
        for it in range(iters):
            with acc.parallel(num_gangs=4):
                for i in acc.loop(range(1, n - 1), gang=True):
                    for j in acc.loop(range(1, m - 1), vector=32):
                        b[i, j] = c * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
            err = 0.0
            with acc.parallel():
                for i in acc.loop(range(1, n - 1), collapse=2, reduction={"max": "err"}):
                    for j in range(1, m - 1):
                        err = max(err, abs(b[i, j] - a[i, j]))
                        a[i, j] = b[i, j]
    return err


@acc.kernels
def kernels_inspected(x, y, f):
    n = x.shape[0]
    for i in range(n):
        y[i] = x[i] * f
    for i in range(1, n):
        y[i] = y[i - 1] + y[i]


@acc.parallel(copyin=["x"])
def parallel_inspected(x, y, k):
    s = 0.0
    h = k * 2
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i] * h
    for i in acc.loop(y.shape[0]):
        y[i] = y[i] + 1.0
    return s


def _line(fn, marker):
    lines, first = __import__("inspect").getsourcelines(fn.py_func)
    return first + next(k for k, t in enumerate(lines) if marker in t)


def test_inspect_shows_the_ir_before_and_after_lowering():
    a = np.random.default_rng(1).random((12, 10))
    jacobi_inspected(a, np.zeros_like(a), 2)
    info = jacobi_inspected.inspect()
    ir = info["ir"]
    assert "fn @jacobi_inspected(" in ir
    assert "#acc data copy(a) create(b)" in ir.replace("  ", " ")
    assert ir.count("#acc parallel") == 2 and "num_gangs(4:i64)" in ir
    assert "#acc loop gang" in ir and "vector(32:i64)" in ir and "collapse(2)" in ir and "reduction(max: err)" in ir
    low = info["lowered_ir"]
    assert low.count("\nkernel ") == 2 and "launch " in low and "acc_loop" in low
    assert "#acc parallel" not in low, "lowering outlines the regions into kernels"


def test_inspect_loop_schedule_says_which_level_and_why():
    a = np.random.default_rng(2).random((12, 10))
    jacobi_inspected(a, np.zeros_like(a), 1)
    loops = {lp["line"]: lp for lp in jacobi_inspected.inspect()["loops"]}
    gang = loops[_line(jacobi_inspected, "for i in acc.loop(range(1, n - 1), gang=True)")]
    assert gang["schedule"] == "gang" and "as written" in gang["reason"]
    vec = loops[_line(jacobi_inspected, "vector=32")]
    assert vec["schedule"] == "vector(32)"
    coll = loops[_line(jacobi_inspected, "collapse=2")]
    assert coll["schedule"].startswith("collapse(2)") and "gang" in coll["schedule"] and "chosen by the compiler" in coll["reason"]
    host = _line(jacobi_inspected, "for it in range(iters)")
    assert host not in loops, "host loops of a jit body are not device loops"
    x, y = np.arange(1.0, 9.0), np.zeros(8)
    kernels_inspected(x, y, 2.0)
    info = kernels_inspected.inspect()
    loops = {lp["line"]: lp for lp in info["loops"]}
    par = loops[_line(kernels_inspected, "for i in range(n)")]
    assert "gang" in par["schedule"] and "independent" in par["reason"]
    dep = loops[_line(kernels_inspected, "for i in range(1, n)")]
    assert dep["schedule"] == "seq" and "`y`" in dep["reason"], dep
    text = str(info)
    assert f"line {dep['line']}: loop seq -- " in text and dep["reason"] in text


def test_inspect_implicit_data_attributes():
    x, y = np.arange(1.0, 9.0), np.zeros(8)
    parallel_inspected(x, y, 3)
    (r,) = parallel_inspected.inspect()["regions"]
    got = {(c["clause"], c["var"]): c for c in r["clauses"]}
    assert got[("copyin", "x")]["implicit"] is False and got[("copyin", "x")]["why"] == "as written"
    assert got[("copy", "y")]["implicit"] is True and "no clause" in got[("copy", "y")]["why"]
    assert got[("firstprivate", "h")]["implicit"] is True, got
    assert got[("copy", "s")]["implicit"] is True and "reduction" in got[("copy", "s")]["why"]
    assert not any(v == "k" for _c, v in got), "k is only read by the prologue, not the region"
    assert r["kernels"] == ["parallel_inspected_parallel_0"]
    a = np.random.default_rng(3).random((12, 10))
    jacobi_inspected(a, np.zeros_like(a), 1)
    info = jacobi_inspected.inspect()
    first, second = info["regions"]
    data_line = _line(jacobi_inspected, "with acc.data(")
    for r in (first, second):
        for c in r["clauses"]:
            if c["var"] in ("a", "b"):
                assert c["implicit"] and f"acc.data of line {data_line}" in c["why"], c
    assert {(c["clause"], c["var"]) for c in first["clauses"]} >= {("firstprivate", "n"), ("firstprivate", "m"), ("firstprivate", "c")}
    assert ("copy", "err") in {(c["clause"], c["var"]) for c in second["clauses"]}
    text = str(info)
    assert "implicit: found present" in text and "firstprivate(c)" in text


def test_inspect_generated_code():
    x, y = np.arange(1.0, 9.0), np.zeros(8)
    parallel_inspected(x, y, 3)
    plain = parallel_inspected.inspect()
    assert "clif" not in plain and "IR (" not in str(plain)
    info = parallel_inspected.inspect(code=True)
    clif = info["clif"]
    assert clif.count("function ") >= 2, "the host function and the kernel"
    assert "; function parallel_inspected\n" in clif and "; kernel parallel_inspected_parallel_0" in clif
    # the loop bodies: scalar CLIF, or (where the CPU has AVX-512) the SIMD body described in comments
    assert ("fmul" in clif and "fadd" in clif) or ("= mul v0, v1" in clif and "= add v0, v1" in clif)
    text = str(info)
    assert text.index("IR (") < text.index("CLIF (") and info["ir"].strip() in text and clif.strip()[:200] in text
    if acc.get_num_devices("nvidia") > 0:  # the lead's GPU run (scripts/gpu/pykernels_gpu.sh) checks PTX
        acc.set_device_type("nvidia")
        parallel_inspected(x, y, 3)
        ptx = parallel_inspected.inspect(code=True)["ptx"]
        assert ".entry" in ptx and "parallel_inspected_parallel_0" in ptx


def test_inspect_ptx_over_the_fake_driver(tmp_path):
    """On nvidia, inspect(code=True) has the kernel's PTX. Checked without a GPU over the
    runtime tests' fake libcuda (compiling needs no GPU; nothing is launched)."""
    import shutil

    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None:
        pytest.skip("no C compiler to build the fake libcuda")
    src = ROOT / "rust/runtime/tests/fake_cuda/libcuda.c"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", str(tmp_path / "libcuda.so"), str(src), "-lpthread", "-lm"], check=True)
    script = textwrap.dedent("""
        import accjit as acc
        assert acc.get_num_devices("nvidia") == 1
        @acc.parallel(copyin=["x"])
        def scaled_sum(x, y, k):
            s = 0.0
            for i in acc.loop(x.shape[0], reduction={"+": "s"}):
                s += x[i] * k
            for i in acc.loop(y.shape[0]):
                y[i] = y[i] + 1.0
            return s
        acc.set_device_type("nvidia")
        scaled_sum.compile(("float64[:]", "float64[:]", "int64"))
        info = scaled_sum.inspect(code=True)
        assert info["device_type"] == "nvidia"
        ptx = info["ptx"]
        assert ".entry scaled_sum_parallel_0" in ptx or ".entry\tscaled_sum_parallel_0" in ptx or "scaled_sum_parallel_0(" in ptx, ptx[:2000]
        assert ".target sm_" in ptx and "ld.global" in ptx
        text = str(info)
        assert text.index("IR (") < text.index("PTX:") and ptx.strip()[:200] in text
        print("ok ptx", len(ptx))
    """)
    env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path), ACCJIT_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("ACC_DEVICE_TYPE", None)
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ok ptx" in r.stdout, r.stdout + r.stderr


def test_inspect_defaults_to_the_last_signature_and_which():
    @acc.jit
    def f(a):
        return a * 2

    f(1)
    f(1.0)
    assert f.inspect()["signature"] == ["float64"]
    assert f.inspect(which=0)["signature"] == ["int64"]
    assert f.inspect()["results"] == ["float64"]


# --- py_func and plain-Python spellings ------------------------------------------------------


def test_atomics_as_plain_python():
    a = np.array([10, 20, 30], dtype=np.int32)
    assert acc.atomic.add(a, 0, 5) == 10 and a[0] == 15
    assert acc.atomic.sub(a, 1, 5) == 20 and a[1] == 15
    assert acc.atomic.max(a, 2, 40) == 30 and a[2] == 40
    assert acc.atomic.min(a, 2, 7) == 40 and a[2] == 7
    assert acc.atomic.div(a, 0, -2) == 15 and a[0] == -7, "C division truncates toward zero"
    assert acc.atomic.exchange(a, 1, 3) == 15 and a[1] == 3
    assert acc.atomic.cas(a, 1, 3, 9) == 3 and a[1] == 9
    assert acc.atomic.cas(a, 1, 3, 1) == 9 and a[1] == 9
    assert acc.atomic.read(a, 1) == 9
    acc.atomic.write(a, 1, 4)
    assert acc.atomic.xor(a, 1, 1) == 4 and a[1] == 5
    assert acc.atomic.lshift(a, 1, 2) == 5 and a[1] == 20
    m = np.zeros((2, 2))
    acc.atomic.add(m, (1, 0), 2.5)
    assert m[1, 0] == 2.5
    with acc.atomic():
        m[0, 0] += 1
    with acc.atomic("capture"):
        old = m[0, 0]
        m[0, 0] += 1
    assert old == 1 and m[0, 0] == 2
    with pytest.raises(ValueError):
        acc.atomic("sometimes")


def test_py_func_runs_a_jit_body_with_data_directives():
    @acc.jit
    def smooth(a, b, iters):
        n = a.shape[0]
        with acc.data(copy=[a], create=[b]):
            for it in range(iters):
                with acc.parallel():
                    for i in acc.loop(range(1, n - 1)):
                        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0
                with acc.parallel():
                    for i in acc.loop(range(1, n - 1)):
                        a[i] = b[i]
            acc.update_self(a)

    a = _rng().random(50)
    b = np.zeros(50)
    smooth.py_func(a, b, 3)
    ref = _rng().random(50)
    for _ in range(3):
        ref[1:-1] = (ref[:-2] + ref[1:-1] + ref[2:]) / 3.0
    np.testing.assert_allclose(a, ref)


def test_enter_and_exit_data_at_python_level():
    a = np.arange(8.0)
    acc.enter_data(copyin=[a])
    try:
        assert acc.is_present(a)
        acc.update_device(a)
        acc.update_self(a[0:4])
        acc.wait()
    finally:
        acc.exit_data(delete=[a], finalize=True)
    assert not acc.is_present(a)
    acc.enter_data(create=[a], if_=False)
    assert not acc.is_present(a)


# --- process-level behaviour -----------------------------------------------------------------


def test_kernels_defined_in_exec_with_linecache_and_in_python_c():
    src = textwrap.dedent("""
        import accjit as acc
        @acc.jit
        def cube(v):
            return v * v * v
    """)
    name = "<accjit-test-cell-1>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)  # as IPython registers cells
    env = {}
    exec(compile(src, name, "exec"), env)
    assert env["cube"](3) == 27
    code = "import accjit as acc\n@acc.jit\ndef sq(v):\n    return v * v\nprint(sq(7))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "ACC_DEVICE_TYPE": "multicore"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "49" and r.stderr == ""


def test_the_same_function_decorated_twice_hits_the_in_process_cache():
    def body(x):
        for i in acc.loop(len(x)):
            x[i] = 7

    acc.parallel(body)(np.zeros(3, np.int16))
    stats = acc.cache_stats()
    x = np.zeros(3, np.int16)
    acc.parallel(body)(x)
    after = acc.cache_stats()
    assert after["hits"] == stats["hits"] + 1 and after["compilations"] == stats["compilations"]
    assert list(x) == [7, 7, 7]


def test_ctrl_c_interrupts_a_long_kernel_call():
    @acc.jit
    def spin(stop, limit):
        k = 0
        while stop[0] == 0 and k < limit:
            k += 1
        return k

    stop = np.zeros(1, dtype=np.int32)
    assert spin(np.ones(1, np.int32), 10) == 0
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    safety = threading.Timer(10.0, lambda: stop.__setitem__(0, 1))
    timer.start()
    safety.start()
    t = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            spin(stop, 1 << 40)
        assert time.perf_counter() - t < 2.0
    finally:
        stop[0] = 1
        timer.cancel()
        safety.cancel()
        signal.signal(signal.SIGINT, old_handler)
    time.sleep(0.05)
    assert spin(np.zeros(1, np.int32), 5) == 5, "the kernel still works"


@pytest.mark.parametrize("device", ["multicore", "host"])
def test_ctrl_c_interrupts_a_long_compute_kernel(device):
    """A kernel whose gangs spin: Ctrl-C raises KeyboardInterrupt in ~0.2 s although
    every gang (also one the waiting Python thread could run as a pool guest) is busy."""
    @acc.parallel(num_gangs=8)
    def spin_gangs(stop, count, limit):
        for g in acc.loop(8, gang=True):
            k = 0
            while stop[0] == 0 and k < limit:
                k += 1
            acc.atomic.add(count, 0, k)

    acc.set_device_type(device)
    count = np.zeros(1, dtype=np.int64)
    for _ in range(3):  # short calls first: the guest fast path is on for calls like them
        spin_gangs(np.ones(1, np.int32), count, 10)
    assert count[0] == 0
    stop = np.zeros(1, dtype=np.int32)
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    safety = threading.Timer(10.0, lambda: stop.__setitem__(0, 1))
    timer.start()
    safety.start()
    t = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            spin_gangs(stop, count, 1 << 40)
        assert time.perf_counter() - t < 2.0
    finally:
        stop[0] = 1  # the abandoned kernel ends
        timer.cancel()
        safety.cancel()
        signal.signal(signal.SIGINT, old_handler)
    acc.wait()
    time.sleep(0.1)
    fresh = np.zeros(1, dtype=np.int64)
    spin_gangs(np.zeros(1, np.int32), fresh, 5)
    assert fresh[0] == 8 * 5, "the kernel still works"


def test_gil_is_released_during_a_call():
    @acc.jit
    def busy(n):
        s = 0.0
        for i in range(n):
            s += i * 0.5
        return s

    busy(10)
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    th = threading.Thread(target=ticker)
    th.start()
    try:
        busy(300_000_000)
    finally:
        done.set()
        th.join()
    assert len(ticks) > 3


# --- the documentation -----------------------------------------------------------------------


def test_docs_examples_run(capsys):
    """Every ```python block of docs/python-kernels.md runs, in order, in one
    namespace (each block registered with linecache, as IPython does, so its
    kernels can be compiled)."""
    doc = ROOT / "docs" / "python-kernels.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)
    assert len(blocks) >= 6
    env = {"__name__": "__doc__"}
    pending = []
    for i, src in enumerate(blocks):
        name = f"<python-kernels.md block {i + 1}>"
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        try:
            exec(compile(src, name, "exec"), env)
        except acc.CompileError as e:
            # A construct the front end does not implement yet (issue 10 in
            # progress): reported as a skip below, never silently passed.
            if "not supported yet" not in str(e):
                raise
            pending.append(f"block {i + 1}: {e}")
    out = capsys.readouterr().out
    for word in ("ok saxpy", "ok signatures", "ok compile", "ok inspect"):
        assert word in out
    if pending:
        pytest.skip("documentation examples waiting for front-end features: " + "; ".join(pending))
