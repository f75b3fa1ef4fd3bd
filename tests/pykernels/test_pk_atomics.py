"""Atomics in every form: acc.atomic.<op>(a, i, v) updates of every operator, the
capture forms returning the old value, read, write, exchange, tuple indices of 2-D
arrays, and the block forms `with acc.atomic(...)` (mirrors core/084-090, 117-119,
134, 143, 167)."""

import numpy as np
import pytest

from pkutil import FLOAT_DTYPES, INT_DTYPES, acc, assert_same, rand

N = 2000
BINS = 16


@acc.parallel
def histogram(x, h):
    nb = h.shape[0]
    for i in acc.loop(x.shape[0]):
        acc.atomic.add(h, x[i] % nb, 1)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_atomic_add_histogram(dtype, rng):
    x = rand(rng, N if np.dtype(dtype).itemsize > 1 else 800, "int64", 0, 10_000)
    h = np.zeros(BINS, dtype=dtype) + np.dtype(dtype).type(1)
    histogram(x, h)
    want = (np.bincount(x % BINS, minlength=BINS) + 1).astype(dtype)
    np.testing.assert_array_equal(h, want)


@acc.parallel
def weighted_histogram(x, w, h):
    nb = h.shape[0]
    for i in acc.loop(x.shape[0]):
        acc.atomic.add(h, x[i] % nb, w[i])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_atomic_add_float_weights(dtype, rng):
    x = rand(rng, N, "int64", 0, 10_000)
    w = rand(rng, N, dtype)
    h = np.zeros(BINS, dtype=dtype)
    weighted_histogram(x, w, h)
    want = np.bincount(x % BINS, weights=w.astype(np.float64), minlength=BINS)
    assert_same(h, want, rtol=1e-5 if dtype == "float32" else 1e-12)


@acc.parallel
def atomic_sub(x, c):
    for i in acc.loop(x.shape[0]):
        acc.atomic.sub(c, 0, x[i])


@acc.parallel
def atomic_mul(x, p):
    for i in acc.loop(x.shape[0]):
        acc.atomic.mul(p, i % 4, x[i])


@acc.parallel
def atomic_div(x, q):
    for i in acc.loop(x.shape[0]):
        acc.atomic.div(q, i % 4, x[i])


@acc.parallel
def atomic_max(x, m):
    for i in acc.loop(x.shape[0]):
        acc.atomic.max(m, i % 8, x[i])


@acc.parallel
def atomic_min(x, m):
    for i in acc.loop(x.shape[0]):
        acc.atomic.min(m, i % 8, x[i])


@acc.parallel
def atomic_and(x, r):
    for i in acc.loop(x.shape[0]):
        acc.atomic.and_(r, 0, x[i])


@acc.parallel
def atomic_or(x, r):
    for i in acc.loop(x.shape[0]):
        acc.atomic.or_(r, 0, x[i])


@acc.parallel
def atomic_xor(x, r):
    for i in acc.loop(x.shape[0]):
        acc.atomic.xor(r, 0, x[i])


@acc.parallel
def atomic_lshift(x, r):
    for i in acc.loop(x.shape[0]):
        acc.atomic.lshift(r, x[i], 1)


@acc.parallel
def atomic_rshift(x, r):
    for i in acc.loop(x.shape[0]):
        acc.atomic.rshift(r, x[i], 1)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float64"])
def test_atomic_sub(dtype, rng):
    x = rand(rng, N, dtype)
    c = np.full(1, 7, dtype=dtype)
    atomic_sub(x, c)
    assert_same(c[0], 7 - x.sum(dtype=dtype), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_atomic_mul_div(dtype, rng):
    if dtype == "int64":
        x = rng.choice(np.array([1, -1, 1, 1]), 200)
        x[rng.choice(200, 12, replace=False)] = 2
    else:
        x = rng.uniform(0.98, 1.02, 400).astype(dtype)
    p = np.full(4, 3, dtype=dtype)
    atomic_mul(x, p)
    want = np.array([3 * np.prod(x[k::4].astype(np.float64)) for k in range(4)])
    assert_same(p, want.astype(dtype), rtol=1e-4 if dtype == "float32" else 1e-12)
    if dtype != "int64":
        q = np.full(4, 3, dtype=dtype)
        atomic_div(x, q)
        assert_same(q, (3 / (want / 3)).astype(dtype), rtol=1e-4 if dtype == "float32" else 1e-12)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "float32", "float64"])
def test_atomic_max_min(dtype, rng):
    x = rand(rng, N, dtype, -1000 if dtype[0] != "u" and dtype[0] != "f" else None, 1000 if dtype[0] != "f" else None)
    m = np.full(8, x[0], dtype=dtype)
    atomic_max(x, m)
    np.testing.assert_array_equal(m, [x[k::8].max() for k in range(8)])
    m = np.full(8, x[1], dtype=dtype)
    atomic_min(x, m)
    np.testing.assert_array_equal(m, [x[k::8].min() for k in range(8)])


@pytest.mark.parametrize("dtype", ["int32", "uint64", "int8"])
def test_atomic_bitwise(dtype, rng):
    dt = np.dtype(dtype)
    bits = dt.itemsize * 8
    x = np.array([~(1 << int(rng.integers(bits - 1))) for _ in range(64)], dtype=np.int64).astype(dt)
    r = np.full(1, ~np.zeros(1, dtype=dt)[0], dtype=dt)
    atomic_and(x, r)
    assert r[0] == np.bitwise_and.reduce(x)
    y = (~x).astype(dt)
    r = np.zeros(1, dtype=dt)
    atomic_or(y, r)
    assert r[0] == np.bitwise_or.reduce(y) and r[0] != 0
    z = rand(rng, 999, dt, 0, np.iinfo(dt).max if bits < 64 else 2**40)
    r = np.full(1, z[5], dtype=dt)
    atomic_xor(z, r)
    assert r[0] == np.bitwise_xor(np.bitwise_xor.reduce(z), z[5])


def test_atomic_shifts(rng):
    x = rand(rng, 120, "int64", 0, 7)
    counts = np.bincount(x, minlength=8)
    r = np.full(8, 3, dtype=np.int64)
    atomic_lshift(x, r)
    np.testing.assert_array_equal(r, 3 << counts)
    r = np.full(8, 2**62 + 12345, dtype=np.int64)
    atomic_rshift(x, r)
    np.testing.assert_array_equal(r, (2**62 + 12345) >> counts)


# ---- capture, read, write, exchange ----

@acc.parallel
def compact_positive(x, out, count):
    for i in acc.loop(x.shape[0]):
        if x[i] > 0:
            k = acc.atomic.add(count, 0, 1)
            out[k] = x[i]


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_capture_returns_old_value_unique_slots(dtype, rng):
    x = rand(rng, N, "float64", -1.0, 1.0)
    out = np.zeros(N)
    count = np.zeros(1, dtype=dtype)
    compact_positive(x, out, count)
    c = int(count[0])
    assert c == int((x > 0).sum())
    np.testing.assert_array_equal(np.sort(out[:c]), np.sort(x[x > 0]))
    assert (out[c:] == 0).all()


@acc.parallel
def capture_sub_tickets(n, tickets, got):
    for i in acc.loop(n):
        got[i] = acc.atomic.sub(tickets, 0, 1)


def test_capture_sub_gives_distinct_old_values(rng):
    n = 777
    start = int(rng.integers(1000, 2000))
    tickets = np.full(1, start, dtype=np.int64)
    got = np.zeros(n, dtype=np.int64)
    capture_sub_tickets(n, tickets, got)
    assert tickets[0] == start - n
    np.testing.assert_array_equal(np.sort(got), np.arange(start - n + 1, start + 1))


@acc.parallel
def read_write(a, b):
    for i in acc.loop(a.shape[0]):
        v = acc.atomic.read(a, i)
        acc.atomic.write(b, i, v * 2.0)


def test_atomic_read_write(rng):
    a = rand(rng, N, "float64")
    b = np.zeros_like(a)
    read_write(a, b)
    assert_same(b, 2 * a)


@acc.parallel
def exchange_chain(n, slot, olds):
    for i in acc.loop(n):
        olds[i] = acc.atomic.exchange(slot, 0, i + 1)


def test_atomic_exchange_returns_old(rng):
    n = 1000
    slot = np.zeros(1, dtype=np.int64)
    olds = np.full(n, -1, dtype=np.int64)
    exchange_chain(n, slot, olds)
    seen = np.sort(np.concatenate([olds, slot]))
    np.testing.assert_array_equal(seen, np.arange(0, n + 1))


@acc.parallel
def histogram_2d(x, y, h):
    nb = h.shape[0]
    for i in acc.loop(x.shape[0]):
        acc.atomic.add(h, (x[i] % nb, y[i] % nb), 1)


@pytest.mark.parametrize("order", ["C", "F"])
def test_tuple_index_2d_histogram(order, rng):
    x = rand(rng, N, "int64", 0, 1000)
    y = rand(rng, N, "int64", 0, 1000)
    h = np.zeros((6, 6), dtype=np.int32, order=order)
    histogram_2d(x, y, h)
    want = np.zeros((6, 6), dtype=np.int32)
    np.add.at(want, (x % 6, y % 6), 1)
    np.testing.assert_array_equal(h, want)


# ---- block forms ----

@acc.parallel
def block_update(x, h):
    nb = h.shape[0]
    for i in acc.loop(x.shape[0]):
        k = x[i] % nb
        with acc.atomic():
            h[k] += 1


@acc.parallel
def block_update_named(x, h):
    nb = h.shape[0]
    for i in acc.loop(x.shape[0]):
        k = x[i] % nb
        with acc.atomic("update"):
            h[k] = h[k] + 2


@pytest.mark.parametrize("fn,inc", [(block_update, 1), (block_update_named, 2)], ids=["bare", "update"])
def test_atomic_block_update(fn, inc, rng):
    x = rand(rng, N, "int64", 0, 10_000)
    h = np.zeros(BINS, dtype=np.int64)
    fn(x, h)
    np.testing.assert_array_equal(h, inc * np.bincount(x % BINS, minlength=BINS))


@acc.parallel
def block_capture(x, out, count):
    for i in acc.loop(x.shape[0]):
        if x[i] > 0.5:
            with acc.atomic("capture"):
                k = count[0]
                count[0] += 1
            out[k] = x[i]


def test_atomic_block_capture(rng):
    x = rand(rng, N, "float64", 0.0, 1.0)
    out = np.zeros(N)
    count = np.zeros(1, dtype=np.int64)
    block_capture(x, out, count)
    c = int(count[0])
    assert c == int((x > 0.5).sum()) > 0
    np.testing.assert_array_equal(np.sort(out[:c]), np.sort(x[x > 0.5]))


@acc.parallel
def block_read_write(a, b):
    for i in acc.loop(a.shape[0]):
        with acc.atomic("read"):
            v = a[i]
        with acc.atomic("write"):
            b[i] = v + 1.0


def test_atomic_block_read_write(rng):
    a = rand(rng, N, "float64")
    b = np.zeros_like(a)
    block_read_write(a, b)
    assert_same(b, a + 1.0)


@acc.kernels
def kernels_atomic(x, h):
    for i in range(x.shape[0]):
        acc.atomic.add(h, x[i] % 4, x[i])


@acc.jit
def jit_atomic(x, h):
    with acc.parallel():
        for i in acc.loop(x.shape[0]):
            acc.atomic.add(h, x[i] % 4, x[i])


@pytest.mark.parametrize("fn", [kernels_atomic, jit_atomic], ids=lambda f: f.__name__)
def test_atomic_in_kernels_and_jit_regions(fn, rng):
    x = rand(rng, N, "int64", 0, 1000)
    h = np.zeros(4, dtype=np.int64)
    fn(x, h)
    np.testing.assert_array_equal(h, [x[x % 4 == k].sum() for k in range(4)])
