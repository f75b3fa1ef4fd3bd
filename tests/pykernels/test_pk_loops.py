"""Loops: acc.loop with gang/worker/vector/seq/independent/auto/collapse/tile/private,
every range form (steps of any sign, empty ranges, bounds and steps from parameters),
plain range loops, nesting, acc.cache (mirrors core/060-069, 105, 111-115, 141, 147 and
gaps/070-099)."""

import numpy as np
import pytest

from pkutil import acc, assert_same, rand


# ---- levels ----

@acc.parallel
def gang_vector_2d(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, vector=True):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel(num_gangs=4, num_workers=4, vector_length=32)
def gang_worker_vector_3d(a, b):
    n, m, k = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, worker=True):
            for l in acc.loop(k, vector=True):
                b[i, j, l] = a[i, j, l] + i * 100 + j * 10 + l


@acc.parallel
def gang_num_vector_len(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=3):
        for j in acc.loop(m, vector=16):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def gang_worker_num(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, worker=2):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def gang_static(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang={"static": 2}):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def gang_static_star_num(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang={"num": 4, "static": "*"}):
        for j in acc.loop(m, vector=True):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def gang_seq_vector(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, seq=True):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def independent_loops(a, b):
    n, m = a.shape
    for i in acc.loop(n, independent=True):
        for j in acc.loop(m, independent=True):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.kernels
def kernels_gang_vector(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, vector=64):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.kernels
def kernels_plain_ranges(a, b):
    n, m = a.shape
    for i in range(n):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def collapse2(a, b):
    n, m = a.shape
    for i in acc.loop(n, collapse=2):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def collapse2_gang_vector(a, b):
    n, m = a.shape
    for i in acc.loop(n, collapse=2, gang=True, vector=True):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def tile_8x8(a, b):
    n, m = a.shape
    for i in acc.loop(n, tile=(8, 8)):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def tile_5x3(a, b):
    n, m = a.shape
    for i in acc.loop(n, tile=(5, 3), gang=True, vector=True):
        for j in range(m):
            b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def collapse_ranges_form(a, b):
    n, m = a.shape
    for i, j in acc.loop(range(n), range(m), collapse=2):
        b[i, j] = a[i, j] * 2.0 + i - j


@acc.parallel
def auto_loops(a, b):
    n, m = a.shape
    for i in acc.loop(n, auto=True):
        for j in acc.loop(m, auto=True):
            b[i, j] = a[i, j] * 2.0 + i - j


TWO_D = [gang_vector_2d, gang_num_vector_len, gang_worker_num, gang_static, gang_static_star_num,
         gang_seq_vector, independent_loops, kernels_gang_vector, kernels_plain_ranges, collapse2,
         collapse2_gang_vector, tile_8x8, tile_5x3, collapse_ranges_form, auto_loops]


@pytest.mark.parametrize("fn", TWO_D, ids=lambda f: f.__name__)
def test_2d_loop_schedules(fn, rng):
    a = rand(rng, (37, 53), "float64")
    b = np.zeros_like(a)
    fn(a, b)
    i, j = np.indices(a.shape)
    assert_same(b, a * 2.0 + i - j)


def test_gang_worker_vector_3d(rng):
    a = rand(rng, (6, 7, 33), "float64")
    b = np.zeros_like(a)
    gang_worker_vector_3d(a, b)
    i, j, l = np.indices(a.shape)
    assert_same(b, a + i * 100 + j * 10 + l)


@acc.parallel
def collapse3(a, b):
    n, m, k = a.shape
    for i in acc.loop(n, collapse=3, gang=True, vector=True):
        for j in range(m):
            for l in range(k):
                b[i, j, l] = a[i, j, l] + i * 100 + j * 10 + l


def test_collapse3(rng):
    a = rand(rng, (5, 9, 11), "float64")
    b = np.zeros_like(a)
    collapse3(a, b)
    i, j, l = np.indices(a.shape)
    assert_same(b, a + i * 100 + j * 10 + l)


@acc.parallel
def auto_with_dependence(x):
    for i in acc.loop(1, x.shape[0], auto=True):
        x[i] = x[i] + x[i - 1]


def test_auto_loop_with_dependence_is_sequential(rng):
    x = rand(rng, 2000, "int64")
    want = np.cumsum(x)
    auto_with_dependence(x)
    np.testing.assert_array_equal(x, want)


@acc.parallel
def seq_inner_recurrence(a):
    n, m = a.shape
    for i in acc.loop(n, gang=True):
        for j in acc.loop(1, m, seq=True):
            a[i, j] = a[i, j] + a[i, j - 1]


def test_seq_inner_recurrence_per_row(rng):
    a = rand(rng, (40, 60), "int64")
    want = np.cumsum(a, axis=1)
    seq_inner_recurrence(a)
    np.testing.assert_array_equal(a, want)


@acc.parallel
def plain_inner_range_is_seq(a):
    n, m = a.shape
    for i in acc.loop(n):
        for j in range(1, m):
            a[i, j] = a[i, j] * a[i, j - 1] % 1000003


def test_plain_range_in_parallel_is_seq(rng):
    a = rand(rng, (30, 50), "int64", 1, 1000)
    want = a.copy()
    for j in range(1, 50):
        want[:, j] = want[:, j] * want[:, j - 1] % 1000003
    plain_inner_range_is_seq(a)
    np.testing.assert_array_equal(a, want)


# ---- range forms ----

@acc.parallel
def loop_n(y):
    for i in acc.loop(y.shape[0]):
        y[i] = i + 1


@acc.parallel
def loop_lo_hi(y, lo, hi):
    for i in acc.loop(lo, hi):
        y[i] = i + 1


@acc.parallel
def loop_lo_hi_step(y, lo, hi, step):
    for i in acc.loop(lo, hi, step):
        y[i] = i + 1


@acc.parallel
def loop_range_obj(y, lo, hi, step):
    for i in acc.loop(range(lo, hi, step)):
        y[i] = i + 1


@acc.parallel
def plain_range_step(y, lo, hi, step):
    for i in range(lo, hi, step):
        y[i] = i + 1


def expect_range(n, lo, hi, step):
    want = np.full(n, -7, dtype=np.int64)
    for i in range(lo, hi, step):
        want[i] = i + 1
    return want


def test_loop_n():
    y = np.full(101, -7, dtype=np.int64)
    loop_n(y)
    np.testing.assert_array_equal(y, np.arange(1, 102))


@pytest.mark.parametrize("lo,hi", [(0, 50), (13, 77), (40, 40), (60, 10)])
def test_loop_lo_hi(lo, hi):
    y = np.full(100, -7, dtype=np.int64)
    loop_lo_hi(y, lo, hi)
    np.testing.assert_array_equal(y, expect_range(100, lo, hi, 1))


@pytest.mark.parametrize("lo,hi,step", [(0, 100, 3), (5, 98, 7), (99, -1, -1), (98, 3, -5), (10, 10, -2), (3, 50, 100)])
@pytest.mark.parametrize("fn", [loop_lo_hi_step, loop_range_obj, plain_range_step], ids=lambda f: f.__name__)
def test_steps_of_any_sign(fn, lo, hi, step):
    y = np.full(100, -7, dtype=np.int64)
    fn(y, lo, hi, step)
    np.testing.assert_array_equal(y, expect_range(100, lo, hi, step))


def test_empty_array_zero_trip():
    y = np.zeros(0, dtype=np.int64)
    loop_n(y)
    assert y.size == 0


@acc.parallel
def loop_literal_step(y):
    for i in acc.loop(y.shape[0] - 1, -1, -2):
        y[i] = i * 2
    for i in acc.loop(1, y.shape[0], 4):
        y[i] = -i


def test_literal_negative_and_positive_steps():
    y = np.full(31, 5, dtype=np.int64)
    loop_literal_step.py_func(want := y.copy())
    loop_literal_step(y)
    np.testing.assert_array_equal(y, want)


@acc.parallel
def int32_bounds(y, n):
    for i in acc.loop(n):
        y[i] = i * i


def test_numpy_int32_bound(rng):
    y = np.zeros(500, dtype=np.int64)
    int32_bounds(y, np.int32(321))
    want = np.zeros(500, dtype=np.int64)
    want[:321] = np.arange(321) ** 2
    np.testing.assert_array_equal(y, want)


@acc.parallel
def long_index(y, base):
    for i in acc.loop(base, base + y.shape[0]):
        y[i - base] = i


def test_64bit_loop_index():
    y = np.zeros(100, dtype=np.int64)
    base = 3 * 2**32 + 5
    long_index(y, base)
    np.testing.assert_array_equal(y, np.arange(base, base + 100, dtype=np.int64))


# ---- private, while, break/continue inside loops ----

@acc.parallel
def loop_private(x, y):
    t = 0.0
    for i in acc.loop(x.shape[0], private=["t"]):
        t = x[i] + 1.0
        y[i] = t * t


def test_loop_private_prologue_scalar(rng):
    x = rand(rng, 5000, "float64")
    y = np.zeros_like(x)
    loop_private(x, y)
    assert_same(y, (x + 1.0) ** 2)


@acc.parallel
def collatz_steps(x, steps):
    for i in acc.loop(x.shape[0]):
        v = x[i]
        c = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            c += 1
        steps[i] = c


def test_while_in_loop_body(rng):
    x = rand(rng, 300, "int64", 1, 10000)
    steps = np.zeros_like(x)
    want = steps.copy()
    collatz_steps.py_func(x, want)
    collatz_steps(x, steps)
    np.testing.assert_array_equal(steps, want)
    assert want.max() > 10


@acc.parallel
def first_above(a, t, out):
    n, m = a.shape
    for i in acc.loop(n):
        out[i] = -1
        for j in range(m):
            if a[i, j] <= t:
                continue
            out[i] = j
            break


def test_break_continue_in_inner_loop(rng):
    a = rand(rng, (50, 40), "float64", 0.0, 1.0)
    out = np.zeros(50, dtype=np.int64)
    first_above(a, 0.97, out)
    want = np.where((a > 0.97).any(axis=1), (a > 0.97).argmax(axis=1), -1)
    np.testing.assert_array_equal(out, want)
    assert (want == -1).any() and (want >= 0).any()


# ---- cache ----

@acc.parallel
def stencil_cache(a, b):
    n = a.shape[0]
    for i in acc.loop(1, n - 1):
        acc.cache(a[i - 1:i + 2])
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0


def test_cache_directive_in_stencil(rng):
    a = rand(rng, 1000, "float64")
    b = np.zeros_like(a)
    stencil_cache(a, b)
    want = np.zeros_like(a)
    want[1:-1] = (a[:-2] + a[1:-1] + a[2:]) / 3.0
    assert_same(b, want)
