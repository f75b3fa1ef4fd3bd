"""Helpers of the Python-kernel suite (conftest.py holds the fixtures)."""

import re
from pathlib import Path

import numpy as np
import pytest

import accjit as acc

if not all(hasattr(acc, n) for n in ("parallel", "kernels", "serial", "jit", "routine", "loop", "atomic")):
    pytest.skip("this accjit build has no Python kernels (acc.parallel)", allow_module_level=True)

# Every dtype the issue names (float16 is storage-only: test_pk_dtypes' float16 tests).
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
SIGNED_DTYPES = INT_DTYPES[:4]
FLOAT_DTYPES = ["float32", "float64"]
COMPLEX_DTYPES = ["complex64", "complex128"]
REAL_DTYPES = INT_DTYPES + FLOAT_DTYPES
NUM_DTYPES = REAL_DTYPES + COMPLEX_DTYPES
ALL_DTYPES = ["bool"] + NUM_DTYPES


def pybug(n, run=True):
    """xfail for a known bug in /work/wt/PYBUGS.md ("from pytests" entry ``n``); run=False
    for one that kills the process."""
    return pytest.mark.xfail(strict=False, run=run, reason=f"PYBUGS pytests #{n}")


def rand(rng, shape, dtype, lo=None, hi=None):
    """Random values of ``dtype`` (no zeros unless the range includes them)."""
    dt = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = max(info.min, -100) if lo is None else lo
        hi = min(info.max, 100) if hi is None else hi
        v = rng.integers(lo, hi, size=shape, endpoint=True, dtype=np.int64 if dt != np.uint64 else np.uint64)
        if lo <= 0 <= hi:  # nudge zeros away: inputs are never zeros
            v[v == 0] = 1
        return v.astype(dt)
    lo = 0.5 if lo is None else lo
    hi = 2.0 if hi is None else hi
    if dt.kind == "c":
        re_ = rng.uniform(lo, hi, size=shape)
        im = rng.uniform(lo, hi, size=shape)
        return (re_ + 1j * im).astype(dt)
    return rng.uniform(lo, hi, size=shape).astype(dt)


def tol(dtype):
    dt = np.dtype(dtype)
    if dt in (np.float32, np.complex64):
        return dict(rtol=2e-5, atol=1e-6)
    if dt.kind in "fc":
        return dict(rtol=1e-12, atol=1e-14)
    return dict(rtol=0, atol=0)


def assert_same(got, want, dtype=None, **kw):
    """Arrays/scalars equal (exactly for ints/bools, within the dtype's tolerance for floats)."""
    dt = np.dtype(dtype) if dtype is not None else np.asarray(want).dtype
    t = dict(tol(dt))
    t.update(kw)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), **t)


def line_of(fn, marker):
    """1-based line of the first line of ``fn``'s source containing ``marker``."""
    import inspect

    py = getattr(fn, "py_func", fn)
    lines, first = inspect.getsourcelines(py)
    for k, line in enumerate(lines):
        if marker in line:
            return first + k
    raise AssertionError(f"marker {marker!r} not in the source of {py.__name__}")


def compile_error(call, fn, marker, *substrings):
    """``call()`` raises acc.CompileError pointing at the line of ``fn`` holding ``marker``,
    in this suite's file, with every substring (case-insensitive) in its message; the
    process goes on (a plain kernel still compiles and runs afterwards)."""
    with pytest.raises(acc.CompileError) as info:
        call()
    e = info.value
    text = " ".join(str(x) for x in (e, getattr(e, "rendered", "")))
    want_line = line_of(fn, marker)
    src = Path(getattr(fn, "py_func", fn).__code__.co_filename).name
    assert re.search(rf"{re.escape(src)}:{want_line}\b", text) or (
        getattr(e, "line", None) == want_line and src in str(getattr(e, "file", ""))
    ), f"expected {src}:{want_line} in:\n{text}"
    for s in substrings:
        assert s.lower() in text.lower(), f"expected {s!r} in:\n{text}"
    import linecache

    code = linecache.getline(getattr(fn, "py_func", fn).__code__.co_filename, want_line).split("#")[0].strip()
    assert code in text, f"expected the source line {code!r} in:\n{text}"
    assert_caret_under_column(e)
    assert_process_lives_on()
    return e


def assert_caret_under_column(e):
    """The rendered error shows the reported line as `LINE | source` and, under it, a caret
    line `    | ^^^` whose first `^` is at the reported column (1-based)."""
    rendered = getattr(e, "rendered", "") or ""
    lines = rendered.splitlines()
    head = f"{e.line} | "
    for k, text in enumerate(lines[:-1]):
        if text.startswith(head):
            caret = lines[k + 1]
            assert caret.strip().startswith("| ^") or caret.lstrip().startswith("|"), f"no caret line under:\n{rendered}"
            col = caret.index("^") - len(head) + 1
            assert col == e.col, f"caret at column {col}, the error says {e.col}:\n{rendered}"
            return
    raise AssertionError(f"the source line {e.line} is not shown as '{head}...' in:\n{rendered}")


_alive = None


def assert_process_lives_on():
    global _alive
    if _alive is None:
        @acc.parallel
        def alive(x):
            for i in acc.loop(x.shape[0]):
                x[i] = x[i] * 2.0 + 1.0

        _alive = alive
    x = np.arange(1.0, 9.0)
    want = x * 2.0 + 1.0
    _alive(x)
    np.testing.assert_array_equal(x, want)
