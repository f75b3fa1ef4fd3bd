"""Reductions: every operator on every dtype it is defined for, the result coming back
as the return value; the reduction variable's starting value taking part; several
variables; nested-loop, gang/worker/vector-level and construct-level reductions; in
kernels, serial and @acc.jit regions (mirrors core/072-079, 120, 121, 133, 135, 136,
139 and gaps/001-029)."""

import numpy as np
import pytest

from pkutil import FLOAT_DTYPES, INT_DTYPES, NUM_DTYPES, REAL_DTYPES, SIGNED_DTYPES, acc, assert_same, rand

N = 600


@acc.parallel
def red_add(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i]
    return s


@acc.parallel
def red_mul(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"*": "s"}):
        s *= x[i]
    return s


@acc.parallel
def red_max(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"max": "s"}):
        s = max(s, x[i])
    return s


@acc.parallel
def red_min(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"min": "s"}):
        s = min(s, x[i])
    return s


@acc.parallel
def red_max_if(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"max": "s"}):
        if x[i] > s:
            s = x[i]
    return s


@acc.parallel
def red_and(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"&": "s"}):
        s &= x[i]
    return s


@acc.parallel
def red_or(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"|": "s"}):
        s |= x[i]
    return s


@acc.parallel
def red_xor(x, init):
    s = init
    for i in acc.loop(x.shape[0], reduction={"^": "s"}):
        s ^= x[i]
    return s


@acc.parallel
def red_land(x, t):
    s = True
    for i in acc.loop(x.shape[0], reduction={"&&": "s"}):
        s = s and x[i] > t
    return s


@acc.parallel
def red_lor(x, t):
    s = False
    for i in acc.loop(x.shape[0], reduction={"||": "s"}):
        s = s or x[i] > t
    return s


def scalar(dtype, v):
    return np.dtype(dtype).type(v)


@pytest.mark.parametrize("dtype", NUM_DTYPES)
def test_sum(dtype, rng):
    dt = np.dtype(dtype)
    x = rand(rng, N, dt)
    init = x[:1].sum(dtype=dt)  # a starting value of the same dtype: it takes part
    got = red_add(x, init)
    if dt.kind in "iu":
        want = np.array([init, x.sum(dtype=dt)], dtype=dt).sum(dtype=dt)
        assert got == want
    else:
        want = x.astype(np.complex128 if dt.kind == "c" else np.float64).sum() + init
        assert_same(got, want, rtol=loose(dt))


def loose(dt):
    return 1e-4 if dt in (np.float32, np.complex64) else 1e-10


def product_inputs(rng, dt):
    if dt.kind == "u":
        return rand(rng, N, dt, 1, 3)
    if dt.kind == "i":
        x = rng.choice(np.array([-1, 1], dtype=dt), N)
        k = min(dt.itemsize * 8 - 2, 20)  # 2**k fits: no signed overflow
        x[rng.choice(N, k, replace=False)] = 2
        return x.astype(dt)
    if dt.kind == "c":
        theta = rng.uniform(-np.pi, np.pi, N)
        return (np.exp(1j * theta) * rng.uniform(0.99, 1.01, N)).astype(dt)
    return rng.uniform(0.97, 1.03, N).astype(dt)


@pytest.mark.parametrize("dtype", NUM_DTYPES)
def test_product(dtype, rng):
    dt = np.dtype(dtype)
    x = product_inputs(rng, dt)
    init = scalar(dt, 3)
    got = red_mul(x, init)
    if dt.kind in "iu":
        want = np.array([init, x.prod(dtype=dt)], dtype=dt).prod(dtype=dt)
        assert got == want
    else:
        wide = np.complex128 if dt.kind == "c" else np.float64
        want = x.astype(wide).prod() * 3
        assert_same(got, want, rtol=loose(dt))


@pytest.mark.parametrize("dtype", REAL_DTYPES)
@pytest.mark.parametrize("op", ["max", "min", "max_if"])
def test_max_min(op, dtype, rng):
    dt = np.dtype(dtype)
    x = rand(rng, N, dt, lo=None if dt.kind in "iu" else -5.0, hi=None if dt.kind in "iu" else 5.0)
    fn = {"max": red_max, "min": red_min, "max_if": red_max_if}[op]
    init = x[N // 2]  # an element: the answer is still the array's extreme
    got = fn(x, init)
    want = x.min() if op == "min" else x.max()
    assert got == want


@pytest.mark.parametrize("dtype", INT_DTYPES + ["bool"])
@pytest.mark.parametrize("op", ["&", "|", "^"])
def test_bitwise(op, dtype, rng):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        x = rng.random(N) < (0.995 if op == "&" else 0.005 if op == "|" else 0.5)
        x[rng.integers(N)] = op != "&"
        init = np.bool_(op == "&")
    else:
        bits = dt.itemsize * 8
        if op == "&":  # mostly ones: a few bits survive
            x = np.array([~(1 << int(rng.integers(bits - 1))) for _ in range(N)], dtype=np.int64).astype(dt)
            x[: N // 2] = ~np.zeros(1, dtype=dt)[0]
        elif op == "|":  # sparse bits: a few bits set
            few = rng.choice(bits - 1, 3, replace=False)  # three bit positions in all
            x = np.array([1 << int(rng.choice(few)) for _ in range(N)], dtype=np.uint64).astype(dt)
        else:
            x = rand(rng, N, dt, 0, np.iinfo(dt).max if dt.itemsize < 8 else 2**40)
        init = x[3]
    fn = {"&": red_and, "|": red_or, "^": red_xor}[op]
    ufunc = {"&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor}[op]
    want = ufunc(ufunc.reduce(x), init)
    got = fn(x, init)
    assert got == want
    if op == "&" and dt.kind != "b":
        assert want != 0 and want != ~np.zeros(1, dtype=dt)[0]


@pytest.mark.parametrize("dtype", ["bool", "int32", "float64"])
@pytest.mark.parametrize("op", ["&&", "||"])
def test_logical(op, dtype, rng):
    dt = np.dtype(dtype)
    x = rand(rng, N, dt) if dt.kind != "b" else rng.random(N) < 0.5
    fn = red_land if op == "&&" else red_lor
    lo, hi = (x.min(), x.max())
    for t in ([lo - 1, lo, hi] if dt.kind != "b" else [False, True]):
        t = scalar(dt, t) if dt.kind != "b" else np.bool_(t)
        want = bool((x > t).all() if op == "&&" else (x > t).any())
        got = fn(x, t)
        assert bool(got) == want and isinstance(got, (bool, np.bool_)), (t, got, want)


# ---- forms ----

@acc.parallel(reduction={"+": "s"})
def red_on_construct(x):
    s = 0.0
    for i in acc.loop(x.shape[0]):
        s += x[i]
    return s


@acc.parallel
def red_implied_by_loop(x):
    s = 0
    for i in acc.loop(x.shape[0], gang=True, vector=True, reduction={"+": "s"}):
        s += x[i]
    return s


@acc.kernels
def red_kernels(x):
    s = 0.0
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i] * x[i]
    return s


@acc.serial
def red_serial(x):
    s = 0.0
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i] * x[i]
    return s


def test_construct_level_reduction(rng):
    x = rand(rng, 5000, "float64")
    assert abs(red_on_construct(x) - x.sum()) <= 1e-9 * x.size


def test_loop_reduction_implies_construct_reduction(rng):
    x = rand(rng, 5000, "int64")
    assert red_implied_by_loop(x) == int(x.sum())


@pytest.mark.parametrize("fn", [red_kernels, red_serial], ids=lambda f: f.__name__)
def test_reduction_in_kernels_and_serial(fn, rng):
    x = rand(rng, 5000, "float64")
    assert abs(fn(x) - float(x @ x)) <= 1e-9 * x.size


@acc.parallel
def four_vars(x):
    s = 0.0
    p = 1.0
    hi = -1e300
    lo = 1e300
    for i in acc.loop(x.shape[0], reduction={"+": "s", "*": "p", "max": "hi", "min": "lo"}):
        s += x[i]
        p *= 1.0 + x[i] * 1e-3
        hi = max(hi, x[i])
        lo = min(lo, x[i])
    return s, p, hi, lo


def test_several_variables_different_operators(rng):
    x = rand(rng, 2000, "float64", -1.0, 1.0)
    s, p, hi, lo = four_vars(x)
    assert abs(s - x.sum()) < 1e-9 * x.size
    assert abs(p - np.prod(1.0 + x * 1e-3)) < 1e-10
    assert hi == x.max() and lo == x.min()


@acc.parallel
def row_sums_and_total(a, rows):
    n, m = a.shape
    total = 0.0
    for i in acc.loop(n, gang=True, reduction={"+": "total"}):
        r = 0.0
        for j in acc.loop(m, vector=True, reduction={"+": "r"}):
            r += a[i, j]
        rows[i] = r
        total += r
    return total


def test_nested_loop_reductions(rng):
    a = rand(rng, (64, 300), "float64")
    rows = np.zeros(64)
    total = row_sums_and_total(a, rows)
    assert_same(rows, a.sum(axis=1), rtol=1e-12)
    assert abs(total - a.sum()) < 1e-9 * a.size


@acc.parallel(num_gangs=4, num_workers=4, vector_length=32)
def all_levels(a):
    n, m, k = a.shape
    s = 0
    for i in acc.loop(n, gang=True, reduction={"+": "s"}):
        for j in acc.loop(m, worker=True, reduction={"+": "s"}):
            for l in acc.loop(k, vector=True, reduction={"+": "s"}):
                s += a[i, j, l]
    return s


def test_gang_worker_vector_reduction(rng):
    a = rand(rng, (9, 10, 70), "int32")
    assert all_levels(a) == int(a.sum(dtype=np.int64))


@acc.parallel
def collapsed_max(a):
    n, m = a.shape
    best = a[0, 0]
    for i in acc.loop(n, collapse=2, reduction={"max": "best"}):
        for j in range(m):
            best = max(best, a[i, j] * (i + 1))
    return best


def test_collapsed_loop_reduction(rng):
    a = rand(rng, (31, 47), "float32")
    want = (a * (np.arange(31)[:, None] + 1).astype(np.float32)).max()
    assert_same(collapsed_max(a), want, "float32")


@acc.parallel
def dot(x, y):
    s = 0.0
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i] * y[i]
    return s


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_dot_product_mixed_promotion(dtype, rng):
    x = rand(rng, 10_000, dtype)
    y = rand(rng, 10_000, dtype)
    got = dot(x, y)
    want = float(x.astype(np.float64) @ y.astype(np.float64))
    assert abs(got - want) <= 1e-6 * abs(want)


@pytest.mark.parametrize("dtype", SIGNED_DTYPES)
def test_sum_of_negative_values(dtype, rng):
    x = rand(rng, N, dtype, -100, -1)
    init = np.dtype(dtype).type(0)
    want = x.sum(dtype=dtype)
    assert red_add(x, init) == want


@acc.jit
def jit_reduction_reuse(x, reps):
    total = 0.0
    for r in range(reps):
        s = 0.0
        with acc.parallel():
            for i in acc.loop(x.shape[0], reduction={"+": "s"}):
                s += x[i] * (r + 1)
        total += s
    return total


def test_reduction_variable_reused_across_regions(rng):
    x = rand(rng, 1000, "float64")
    got = jit_reduction_reuse(x, 5)
    assert abs(got - x.sum() * 15) <= 1e-9 * 15 * x.size


@acc.parallel
def complex_dot(z, w):
    s = 0j
    for i in acc.loop(z.shape[0], reduction={"+": "s"}):
        s += z[i] * w[i]
    return s


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_dot_reduction(dtype, rng):
    z = rand(rng, 3000, dtype)
    w = rand(rng, 3000, dtype)
    got = complex(complex_dot(z, w))
    want = complex(z.astype(np.complex128) @ w.astype(np.complex128))
    assert abs(got - want) <= 1e-5 * abs(want)
