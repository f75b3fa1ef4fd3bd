"""Clause spellings the other files do not reach: device_type groups on constructs and
loops, tile with "*", gang dim, the data-clause modifiers (copyin_readonly, copyout_zero,
create_zero) and the legacy present_or_* names, if_present on updates, wait lists and
the devnum form, async_=True, the string form of reduction, update_host,
acc.wait(q, async_=), host_data in jit bodies, routine(seq=True), capture forms of
every atomic operator and the block capture that reads after the update (mirrors
core/030-041, 090-099, 105, 141, 150-153 and gaps/040-069)."""

import numpy as np
import pytest

from pkutil import INT_DTYPES, acc, assert_same, rand

N = 3000


# ---- device_type ----

@acc.parallel(device_type={"nvidia": {"num_gangs": 64, "vector_length": 128}, ("host", "multicore"): {"num_gangs": 3}, "*": {"num_workers": 2}})
def dtype_groups_on_construct(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i] * 2.0 + 1.0


@acc.parallel
def dtype_groups_on_loop(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang=True, device_type={"nvidia": {"tile": (32,)}, "*": {"seq": True}}):
        for j in acc.loop(m, device_type={"multicore": {"vector": 8}, "host": {"seq": True}, "nvidia": {"vector": 128}}):
            b[i, j] = a[i, j] - i * j


@acc.jit
def dtype_alias_in_jit(x, y):
    with acc.parallel(dtype={"*": {"vector_length": 32}}):
        for i in acc.loop(x.shape[0], dtype={"*": {"vector": True}}):
            y[i] = x[i] * 2.0 + 1.0


def test_device_type_groups_on_construct(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    dtype_groups_on_construct(x, y)
    assert_same(y, x * 2.0 + 1.0)


def test_device_type_groups_on_loops(rng):
    a = rand(rng, (37, 53), "float64")
    b = np.zeros_like(a)
    dtype_groups_on_loop(a, b)
    i, j = np.indices(a.shape)
    assert_same(b, a - i * j)


def test_device_type_alias_dtype_in_jit(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    dtype_alias_in_jit(x, y)
    assert_same(y, x * 2.0 + 1.0)


# ---- loop clause forms ----

@acc.parallel
def tile_star(a, b):
    n, m = a.shape
    for i in acc.loop(n, tile=("*", 4)):
        for j in range(m):
            b[i, j] = a[i, j] * 3.0 - j


@acc.parallel
def tile_3d(a, b):
    n, m, k = a.shape
    for i in acc.loop(n, tile=(2, 3, 4), gang=True, vector=True):
        for j in range(m):
            for l in range(k):
                b[i, j, l] = a[i, j, l] + i - j * l


@acc.parallel(num_gangs=(4,))
def gang_dim_1(a, b):
    n, m = a.shape
    for i in acc.loop(n, gang={"dim": 1}):
        for j in acc.loop(m, vector=True):
            b[i, j] = a[i, j] * 3.0 - j


@acc.parallel
def collapse_force(a, b):
    n, m = a.shape
    for i in acc.loop(n, collapse={"force": 2}):
        for j in range(m):
            b[i, j] = a[i, j] * 3.0 - j


@pytest.mark.parametrize("fn", [tile_star, gang_dim_1, collapse_force], ids=lambda f: f.__name__)
def test_loop_clause_forms_2d(fn, rng):
    a = rand(rng, (29, 61), "float64")
    b = np.zeros_like(a)
    fn(a, b)
    assert_same(b, a * 3.0 - np.arange(61))


def test_tile_three_deep(rng):
    a = rand(rng, (7, 11, 13), "float64")
    b = np.zeros_like(a)
    tile_3d(a, b)
    i, j, l = np.indices(a.shape)
    assert_same(b, a + i - j * l)


@acc.parallel
def loop_private_array_element_temp(a, b):
    n, m = a.shape
    t = 0.0
    for i in acc.loop(n, gang=True, private=["t"]):
        t = a[i, 0]
        for j in acc.loop(m, vector=True):
            b[i, j] = a[i, j] - t


def test_loop_private_scalar_from_a_string(rng):
    a = rand(rng, (40, 33), "float64")
    b = np.zeros_like(a)
    loop_private_array_element_temp(a, b)
    assert_same(b, a - a[:, :1])


# ---- data-clause modifiers and legacy names ----

@acc.parallel(copyin_readonly=["x"], copyout_zero=["y"], create_zero=["t"])
def modifiers(x, y, t):
    for i in acc.loop(x.shape[0]):
        t[i] = x[i] + 1.0
        y[i] = t[i] * 2.0


def test_data_clause_modifiers(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    t = np.zeros_like(x)
    modifiers(x, y, t)
    assert_same(y, (x + 1.0) * 2.0)


@acc.parallel(pcopyin=["x"], present_or_copy=["y"], pcreate=["t"])
def legacy_names(x, y, t):
    for i in acc.loop(x.shape[0]):
        t[i] = x[i] * 0.5
        y[i] = y[i] + t[i]


def test_legacy_present_or_clauses(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    want = y + x * 0.5
    legacy_names(x, y, np.zeros_like(x))
    assert_same(y, want)


@acc.jit
def update_if_present(x, y):
    with acc.parallel(copy=[x]):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] + 1.0
    acc.update_self(y, if_present=True)  # y is not on the device: nothing happens
    acc.update_device(y, if_present=True)


def test_update_if_present_of_an_absent_array(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    want_x, want_y = x + 1.0, y.copy()
    update_if_present(x, y)
    assert_same(x, want_x)
    np.testing.assert_array_equal(y, want_y)


@acc.jit
def update_host_and_section(x, k):
    with acc.data(copy=[x]):
        with acc.parallel(present=[x]):
            for i in acc.loop(x.shape[0]):
                x[i] = x[i] * 2.0
        acc.update_host(x[0:k])
        s = 0.0
        for i in range(k):
            s += x[i]
    return s


def test_update_host_of_a_section(rng):
    x = rand(rng, N, "float64")
    want = x * 2.0
    s = update_host_and_section(x, 100)
    assert_same(x, want)
    assert_same(s, want[:100].sum())


# ---- async / wait forms ----

@acc.jit
def queues_and_waits(a, b, c):
    with acc.data(copy=[a, b, c]):
        with acc.parallel(async_=1):
            for i in acc.loop(a.shape[0]):
                a[i] = a[i] * 2.0
        with acc.parallel(async_=2):
            for i in acc.loop(b.shape[0]):
                b[i] = b[i] + 3.0
        with acc.parallel(wait=[1, 2], async_=3):
            for i in acc.loop(c.shape[0]):
                c[i] = a[i] + b[i]
        acc.wait(3, async_=4)
        with acc.parallel(wait={"devnum": 0, "queues": [4]}, async_=True):
            for i in acc.loop(c.shape[0]):
                c[i] = c[i] * 0.5
        acc.wait()


def test_wait_lists_devnum_and_async_true(rng):
    a = rand(rng, N, "float64")
    b = rand(rng, N, "float64")
    c = np.zeros_like(a)
    want = (a * 2.0 + (b + 3.0)) * 0.5
    queues_and_waits(a, b, c)
    assert_same(c, want)


@acc.parallel(async_=True)
def on_default_async_queue(x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] - 1.0


@acc.parallel(wait=True)
def after_everything(x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * 4.0


def test_async_true_then_wait_true(rng):
    x = rand(rng, 50_000, "float64")
    want = (x - 1.0) * 4.0
    on_default_async_queue(x)
    after_everything(x)
    acc.wait()
    assert_same(x, want)


# ---- reductions: string form ----

@acc.parallel
def reduction_string_form(x):
    s = 0.0
    u = 0.0
    t = 1.0
    m = x[0]
    for i in acc.loop(x.shape[0], reduction="+:s,u"):
        s += x[i]
        u += x[i] * x[i]
    for i in acc.loop(x.shape[0], reduction="*:t"):
        t *= 1.0 + x[i] * 1e-4
    for i in acc.loop(x.shape[0], reduction="max: m"):
        m = max(m, x[i])
    return s, u, t, m


def test_reduction_string_form(rng):
    x = rand(rng, N, "float64")
    s, u, t, m = reduction_string_form(x)
    assert_same(s, x.sum(), rtol=1e-10)
    assert_same(u, (x * x).sum(), rtol=1e-10)
    assert_same(t, np.prod(1.0 + x * 1e-4), rtol=1e-10)
    assert m == x.max()


# ---- host_data in jit bodies ----

@acc.jit
def host_data_address(x):
    with acc.data(copy=[x]):
        with acc.host_data(use_device=[x]):
            with acc.parallel(deviceptr=[x]):
                for i in acc.loop(x.shape[0]):
                    x[i] = x[i] + 5.0


def test_host_data_use_device_then_deviceptr(rng):
    x = rand(rng, N, "float64")
    want = x + 5.0
    host_data_address(x)
    assert_same(x, want)


# ---- routines: keyword level ----

@acc.routine(seq=True)
def seq_kw_square_plus(v, c):
    return v * v + c


@acc.parallel
def use_seq_kw(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = seq_kw_square_plus(x[i], 1)


def test_routine_seq_keyword(rng):
    x = rand(rng, N, "int32", -1000, 1000)
    y = np.zeros_like(x)
    use_seq_kw(x, y)
    np.testing.assert_array_equal(y, x * x + 1)


# ---- atomic capture of every operator ----

@acc.parallel
def capture_each_op(a, x, old):
    n = x.shape[0]
    for i in acc.loop(n):
        v = x[i]
        old[0, i] = acc.atomic.add(a, 0, v)
        old[1, i] = acc.atomic.sub(a, 1, v)
        old[2, i] = acc.atomic.max(a, 2, v)
        old[3, i] = acc.atomic.min(a, 3, v)
        old[4, i] = acc.atomic.and_(a, 4, v)
        old[5, i] = acc.atomic.or_(a, 5, v)
        old[6, i] = acc.atomic.xor(a, 6, v)
        old[7, i] = acc.atomic.exchange(a, 7, v)


OPS = [np.add, np.subtract, np.maximum, np.minimum, np.bitwise_and, np.bitwise_or, np.bitwise_xor, None]


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "uint64"])
def test_capture_of_every_operator(dtype, rng):
    """Each captured old value, combined with its own operand, is the value some other
    capture saw (or the final one): the captures of one slot form one chain."""
    n = 400
    dt = np.dtype(dtype)
    x = rand(rng, n, dt, 1, 1000)
    start = rand(rng, 8, dt, 1, 1000)
    if dt.kind == "u":
        start[1] = np.asarray(10**6, dtype=dt)  # subtracting stays positive
    a = start.copy()
    old = np.zeros((8, n), dtype=dt)
    capture_each_op(a, x, old)
    for k, op in enumerate(OPS):
        after = x.copy() if op is None else op(old[k], x)
        seen = np.concatenate([old[k], a[k:k + 1]])
        # the chain: start, then each capture's result is the next capture's old value
        assert sorted(seen.tolist()) == sorted([start[k]] + after.tolist()), k
    assert a[0] == start[0] + x.sum(dtype=dt)
    assert a[1] == start[1] - x.sum(dtype=dt)
    assert a[2] == max(start[2], x.max()) and a[3] == min(start[3], x.min())
    assert a[4] == np.bitwise_and.reduce(np.append(x, start[4]))
    assert a[5] == np.bitwise_or.reduce(np.append(x, start[5]))
    assert a[6] == np.bitwise_xor.reduce(np.append(x, start[6]))


@acc.parallel
def capture_mul_div(a, x, old):
    for i in acc.loop(x.shape[0]):
        old[0, i] = acc.atomic.mul(a, 0, x[i])
        old[1, i] = acc.atomic.div(a, 1, x[i])


def test_capture_mul_div_float(rng):
    n = 200
    x = rand(rng, n, "float64", 1.0001, 1.001)
    a = np.array([3.0, 5.0])
    old = np.zeros((2, n))
    capture_mul_div(a, x, old)
    assert_same(a[0], 3.0 * np.prod(x), rtol=1e-12)
    assert_same(a[1], 5.0 / np.prod(x), rtol=1e-12)
    # one chain per slot: each old value combined with its operand is the next old value
    # (or the final one); the factors are > 1, so the chain is monotonic and sorting orders it
    assert_same(np.sort(old[0] * x), np.sort(np.append(old[0], a[0]))[1:], rtol=1e-14)
    assert_same(np.sort(old[1] / x), np.sort(np.append(old[1], a[1]))[:-1], rtol=1e-14)


@acc.parallel
def capture_shifts(a, s, old):
    for i in acc.loop(s.shape[0]):
        old[0, i] = acc.atomic.lshift(a, 0, s[i])
        old[1, i] = acc.atomic.rshift(a, 1, s[i])


def test_capture_shifts(rng):
    s = np.ones(20, dtype=np.int64)
    a = np.array([3, 1 << 40], dtype=np.int64)
    old = np.zeros((2, 20), dtype=np.int64)
    capture_shifts(a, s, old)
    assert a[0] == 3 << 20 and a[1] == (1 << 40) >> 20
    assert sorted(old[0].tolist()) == [3 << k for k in range(20)]
    assert sorted(old[1].tolist()) == sorted((1 << 40) >> k for k in range(20))


@acc.parallel
def block_capture_after(x, count, out):
    for i in acc.loop(x.shape[0]):
        with acc.atomic("capture"):
            count[0] += x[i]
            now = count[0]
        out[i] = now


@pytest.mark.parametrize("dtype", ["int64", "uint16"])
def test_block_capture_reading_after_the_update(dtype, rng):
    x = rand(rng, 500, dtype, 1, 9)
    count = np.zeros(1, dtype=dtype)
    out = np.zeros_like(x)
    block_capture_after(x, count, out)
    assert count[0] == x.sum(dtype=dtype)
    # each value seen is the running total after its own add: out - x are the olds
    assert sorted((out - x).tolist() + [int(count[0])]) == sorted([0] + out.tolist())


@acc.parallel
def block_capture_swap(x, slot, out):
    for i in acc.loop(x.shape[0]):
        with acc.atomic("capture"):
            prev = slot[0]
            slot[0] = x[i]
        out[i] = prev


def test_block_capture_swap_form(rng):
    x = np.arange(1, 301, dtype=np.int64)
    rng.shuffle(x)
    slot = np.zeros(1, dtype=np.int64)
    out = np.zeros_like(x)
    block_capture_swap(x, slot, out)
    # every value but the last written is seen once, plus the initial 0
    assert sorted(out.tolist() + [int(slot[0])]) == [0] + list(range(1, 301))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_atomic_update_every_int_dtype_in_kernels(dtype, rng):
    x = rand(rng, N, dtype, 0, 100)
    h = np.zeros(5, dtype=dtype)
    histogram_weighted(x, h)
    want = np.zeros(5, dtype=dtype)
    np.add.at(want, x % 5, 1)
    np.testing.assert_array_equal(h, want)


@acc.kernels
def histogram_weighted(x, h):
    for i in acc.loop(x.shape[0], independent=True):
        acc.atomic.add(h, x[i] % 5, 1)
