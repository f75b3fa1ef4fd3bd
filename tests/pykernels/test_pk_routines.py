"""Routines: @acc.routine bare and at every level (seq/vector/worker/gang), called from
kernels with different argument types (one specialisation per type tuple), nested,
recursive, taking arrays, called from @acc.jit host code and from Python directly
(mirrors core/091-096, 142, 150, 156 and gaps/130-134)."""

import math

import numpy as np
import pytest

from pkutil import acc, assert_same, rand

N = 3000


@acc.routine
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@acc.routine("seq")
def poly(x):
    return 3.0 * x * x - 2.0 * x + 1.0


@acc.routine(seq=True)
def twice(v):
    return v + v


@acc.routine
def poly_of_clamped(x, lo, hi):
    return poly(clamp(x, lo, hi))  # a routine calling routines


@acc.parallel
def apply_clamp(x, y, lo, hi):
    for i in acc.loop(x.shape[0]):
        y[i] = clamp(x[i], lo, hi)


@pytest.mark.parametrize("dtype,lo,hi", [("float64", 0.8, 1.6), ("float32", 0.8, 1.6), ("int64", -20, 30), ("int16", -5, 5), ("uint8", 10, 50)])
def test_seq_routine_specialised_per_argument_types(dtype, lo, hi, rng):
    x = rand(rng, N, dtype)
    y = np.zeros_like(x)
    apply_clamp(x, y, lo, hi)
    assert_same(y, np.clip(x, lo, hi).astype(dtype), dtype)


@acc.parallel
def mixed_calls(x, y, z):
    for i in acc.loop(x.shape[0]):
        y[i] = twice(x[i])          # float64
        z[i] = twice(i)             # int64 (the loop index)


def test_one_routine_two_types_in_one_kernel(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    z = np.zeros(N, dtype=np.int64)
    mixed_calls(x, y, z)
    assert_same(y, 2 * x)
    np.testing.assert_array_equal(z, 2 * np.arange(N))


@acc.parallel
def apply_nested(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = poly_of_clamped(x[i], 0.9, 1.7)


def test_nested_routine_calls(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    apply_nested(x, y)
    c = np.clip(x, 0.9, 1.7)
    assert_same(y, 3.0 * c * c - 2.0 * c + 1.0)


@acc.routine("seq")
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@acc.parallel
def apply_fib(k, out):
    for i in acc.loop(k.shape[0]):
        out[i] = fib(k[i])


def test_recursive_seq_routine(rng):
    k = rand(rng, 64, "int64", 0, 18)
    out = np.zeros_like(k)
    apply_fib(k, out)
    np.testing.assert_array_equal(out, [fib.py_func(int(v)) for v in k])


@acc.routine("seq")
def row_dot(a, i, v):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * v[j]
    return s


@acc.parallel
def matvec(a, v, y):
    for i in acc.loop(a.shape[0]):
        y[i] = row_dot(a, i, v)


@pytest.mark.parametrize("order", ["C", "F"])
def test_routine_taking_arrays(order, rng):
    a = np.asarray(rand(rng, (70, 90), "float64"), order=order)
    v = rand(rng, 90, "float64")
    y = np.zeros(70)
    matvec(a, v, y)
    assert_same(y, a @ v, rtol=1e-12)


@acc.routine("vector")
def row_scale(a, i, f):
    for j in acc.loop(a.shape[1], vector=True):
        a[i, j] = a[i, j] * f


@acc.parallel(vector_length=32)
def scale_rows(a, f):
    for i in acc.loop(a.shape[0], gang=True):
        row_scale(a, i, f[i])


def test_vector_routine_from_gang_loop(rng):
    a = rand(rng, (50, 200), "float64")
    f = rand(rng, 50, "float64")
    want = a * f[:, None]
    scale_rows(a, f)
    assert_same(a, want)


@acc.routine("worker")
def block_fill(a, i, v):
    for j in acc.loop(a.shape[1], worker=True):
        for k in acc.loop(a.shape[2], vector=True):
            a[i, j, k] = v + j * 10 + k


@acc.parallel(num_workers=4, vector_length=16)
def fill_blocks(a):
    for i in acc.loop(a.shape[0], gang=True):
        block_fill(a, i, i * 1000)


def test_worker_routine(rng):
    a = rand(rng, (6, 9, 40), "int64")
    fill_blocks(a)
    i, j, k = np.indices(a.shape)
    np.testing.assert_array_equal(a, i * 1000 + j * 10 + k)


@acc.routine("gang")
def gang_square(x):
    for i in acc.loop(x.shape[0], gang=True):
        x[i] = x[i] * x[i]


@acc.parallel(num_gangs=8)
def call_gang_routine(x):
    gang_square(x)


def test_gang_routine_from_region(rng):
    x = rand(rng, N, "float64")
    want = x * x
    call_gang_routine(x)
    assert_same(x, want)


@acc.routine
def hyp(a, b):
    return math.sqrt(a * a + b * b)


@acc.parallel
def apply_hyp(a, b, out):
    for i in acc.loop(a.shape[0]):
        out[i] = hyp(a[i], b[i])


def test_routine_with_math(rng):
    a = rand(rng, N, "float64")
    b = rand(rng, N, "float64")
    out = np.zeros_like(a)
    apply_hyp(a, b, out)
    assert_same(out, np.hypot(a, b))


@pytest.mark.parametrize("args", [(2.5, 0.0, 1.0), (-3, -1, 4), (7, -1, 4), (np.float32(0.25), np.float32(0.5), np.float32(1.0))])
def test_routine_called_from_python(args):
    got = clamp(*args)
    want = clamp.py_func(*args)
    assert got == want and type(got) in (type(want), int, float)


def test_routine_called_from_python_recursive():
    assert fib(20) == fib.py_func(20)


@acc.jit
def host_calls_routine(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        y[i] = poly(x[i])
        s += twice(x[i])
    return s


def test_routine_called_from_jit_host_code(rng):
    x = rand(rng, 500, "float64")
    y = np.zeros_like(x)
    s = host_calls_routine(x, y)
    assert_same(y, 3.0 * x * x - 2.0 * x + 1.0)
    assert abs(s - 2 * x.sum()) <= 1e-9 * x.size


@acc.kernels
def kernels_calls_routine(x, y):
    for i in range(x.shape[0]):
        y[i] = poly(x[i])


def test_routine_in_kernels(rng):
    x = rand(rng, N, "float32")
    y = np.zeros_like(x)
    kernels_calls_routine(x, y)
    assert_same(y, 3.0 * x * x - 2.0 * x + 1.0, "float32", rtol=1e-5)


@acc.routine
def minmax(a, b):
    return min(a, b), max(a, b)


@acc.parallel
def sort_pairs(a, b):
    for i in acc.loop(a.shape[0]):
        lo, hi = minmax(a[i], b[i])
        a[i] = lo
        b[i] = hi


def test_routine_returning_a_tuple(rng):
    a = rand(rng, N, "int32")
    b = rand(rng, N, "int32")
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    sort_pairs(a, b)
    np.testing.assert_array_equal(a, lo)
    np.testing.assert_array_equal(b, hi)
