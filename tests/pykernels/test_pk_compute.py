"""Compute constructs: @acc.parallel / @acc.kernels / @acc.serial, bare and with
clauses as keywords, the prologue/region/epilogue split, and `with acc.parallel(...)`
regions inside @acc.jit host functions (mirrors core/056-059, 063, 068-070, 097-099,
108-110, 116, 140, 149 of the C corpus)."""

import numpy as np
import pytest

from pkutil import acc, assert_same, rand

N = 1000


# ---- decorators, bare and with keywords ----

@acc.parallel
def saxpy(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.parallel()
def saxpy_parens(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.parallel(num_gangs=4, vector_length=32)
def saxpy_gangs(a, x, y):
    for i in acc.loop(len(x), gang=True, vector=True):
        y[i] = a * x[i] + y[i]


@acc.parallel(num_gangs=3, num_workers=2, vector_length=8)
def saxpy_gwv(a, x, y):
    for i in acc.loop(len(x), gang=True, worker=True, vector=True):
        y[i] = a * x[i] + y[i]


@acc.kernels
def saxpy_kernels(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.kernels(copyin=["x"], copy=["y"])
def saxpy_kernels_clauses(a, x, y):
    for i in range(len(x)):
        y[i] = a * x[i] + y[i]


@acc.serial
def saxpy_serial(a, x, y):
    for i in range(len(x)):
        y[i] = a * x[i] + y[i]


@acc.serial(copyin=["x"], copy=["y"])
def saxpy_serial_clauses(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]


@acc.parallel(copyin=["x"], copyout=["y"])
def scale_copyout(a, x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = a * x[i]


@acc.parallel(copyin=["x[0:n]"], copy=["y[0:n]"])
def saxpy_sections(n, a, x, y):
    for i in acc.loop(n):
        y[i] = a * x[i] + y[i]


SAXPYS = [saxpy, saxpy_parens, saxpy_gangs, saxpy_gwv, saxpy_kernels, saxpy_kernels_clauses,
          saxpy_serial, saxpy_serial_clauses]


@pytest.mark.parametrize("fn", SAXPYS, ids=lambda f: f.__name__)
def test_saxpy_decorator_forms(fn, rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    want = 2.5 * x + y
    assert fn(2.5, x, y) is None
    assert_same(y, want)


def test_saxpy_float32_arrays_python_float_scalar(rng):
    x = rand(rng, N, "float32")
    y = rand(rng, N, "float32")
    want = (2.5 * x.astype(np.float64) + y).astype(np.float32)
    saxpy(2.5, x, y)
    assert y.dtype == np.float32
    assert_same(y, want, "float32")


def test_copyout_clause_writes_every_element(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64") + 100.0
    scale_copyout(3.0, x, y)
    assert_same(y, 3.0 * x)


def test_section_clauses_touch_only_the_section(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    want = y.copy()
    want[:600] += 1.5 * x[:600]
    saxpy_sections(600, 1.5, x, y)
    assert_same(y, want)


def test_the_decorated_function_is_still_plain_python(rng):
    x = rand(rng, 50, "float64")
    y1 = rand(rng, 50, "float64")
    y2 = y1.copy()
    saxpy.py_func(0.5, x, y1)
    saxpy(0.5, x, y2)
    assert_same(y2, y1)
    assert saxpy.__name__ == "saxpy"


# ---- clauses taking values from parameters ----

@acc.parallel(num_gangs="g", num_workers="w", vector_length="v")
def fill_sizes(g, w, v, y):
    for i in acc.loop(y.shape[0], gang=True, worker=True, vector=True):
        y[i] = i * 3 + 1


@pytest.mark.parametrize("g,w,v", [(1, 1, 1), (2, 4, 16), (7, 3, 5), (64, 1, 128)])
def test_num_gangs_workers_vector_from_parameters(g, w, v):
    y = np.zeros(777, dtype=np.int64) - 5
    fill_sizes(g, w, v, y)
    np.testing.assert_array_equal(y, np.arange(777) * 3 + 1)


@acc.parallel(if_="on_device")
def bump_if(on_device, x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] + 1.0


@acc.parallel(self_="on_host")
def bump_self(on_host, x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] + 1.0


@pytest.mark.parametrize("flag", [True, False])
def test_if_clause_both_ways_same_result(flag, rng):
    x = rand(rng, N, "float64")
    want = x + 1.0
    bump_if(flag, x)
    assert_same(x, want)


@pytest.mark.parametrize("flag", [True, False])
def test_self_clause_both_ways_same_result(flag, rng):
    x = rand(rng, N, "float64")
    want = x + 1.0
    bump_self(flag, x)
    assert_same(x, want)


@acc.parallel(firstprivate=["k"])
def add_offset(k, x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i] + k


def test_firstprivate_scalar_parameter(rng):
    x = rand(rng, N, "int64")
    y = np.zeros_like(x)
    add_offset(17, x, y)
    np.testing.assert_array_equal(y, x + 17)


@acc.parallel(private=["t"])
def private_temp(x, y):
    t = 0.0
    for i in acc.loop(x.shape[0]):
        t = x[i] * x[i]
        y[i] = t + 1.0


def test_private_scalar_on_the_construct(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    private_temp(x, y)
    assert_same(y, x * x + 1.0)


@acc.parallel(async_=1)
def scale_async(x, f):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * f


@acc.parallel(async_=1, wait=1)
def add_async_after(x, f):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] + f


def test_async_then_wait_on_queue(rng):
    x = rand(rng, 100_000, "float64")
    want = (x * 3.0 + 2.0) * 3.0
    scale_async(x, 3.0)
    add_async_after(x, 2.0)
    scale_async(x, 3.0)
    acc.wait(1)
    assert_same(x, want)


@acc.parallel(async_="q")
def scale_on_queue(q, x, f):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * f


def test_async_queue_from_parameter_and_wait_all(rng):
    a = rand(rng, 5000, "float64")
    b = rand(rng, 5000, "float64")
    wa, wb = a * 2.0, b * 5.0
    scale_on_queue(2, a, 2.0)
    scale_on_queue(3, b, 5.0)
    acc.wait()
    assert_same(a, wa)
    assert_same(b, wb)


# ---- prologue, region, epilogue ----

@acc.parallel
def prologue_names(x, y):
    n, m = x.shape
    h = n // 2
    c = 2.0 * m
    for i in acc.loop(h):
        for j in acc.loop(m):
            y[i, j] = x[i, j] * c + h


def test_prologue_shape_unpacking_and_derived_scalars(rng):
    x = rand(rng, (9, 13), "float64")
    y = np.zeros_like(x)
    prologue_names(x, y)
    want = np.zeros_like(x)
    want[:4] = x[:4] * 26.0 + 4
    assert_same(y, want)


@acc.parallel
def any_negative(x):
    flag = 0
    for i in acc.loop(x.shape[0]):
        if x[i] < 0.0:
            flag = 1
    return flag


@pytest.mark.parametrize("neg", [True, False])
def test_returned_prologue_scalar_is_copied_back(neg, rng):
    x = rand(rng, N, "float64")
    if neg:
        x[rng.integers(N)] = -1.0
    r = any_negative(x)
    assert r == int(neg) and isinstance(r, int)


@acc.parallel
def sum_and_count(x, t):
    s = 0.0
    c = 0
    for i in acc.loop(x.shape[0], reduction={"+": ["s", "c"]}):
        s += x[i]
        if x[i] > t:
            c += 1
    return s, c


def test_return_tuple_of_two_reductions(rng):
    x = rand(rng, N, "float64")
    s, c = sum_and_count(x, 1.2)
    assert abs(s - x.sum()) <= 1e-9 * N
    assert c == int((x > 1.2).sum())


@acc.parallel
def no_return(x):
    for i in acc.loop(x.shape[0]):
        x[i] = -x[i]


def test_no_return_gives_none(rng):
    x = rand(rng, 10, "float64")
    want = -x
    assert no_return(x) is None
    assert_same(x, want)


# ---- serial and kernels semantics ----

@acc.serial
def prefix_serial(x, y):
    y[0] = x[0]
    for i in range(1, x.shape[0]):
        y[i] = y[i - 1] + x[i]


@acc.kernels
def prefix_kernels(x, y):
    y[0] = x[0]
    for i in range(1, x.shape[0]):
        y[i] = y[i - 1] + x[i]


@pytest.mark.parametrize("fn", [prefix_serial, prefix_kernels], ids=lambda f: f.__name__)
def test_sequential_dependence_kept(fn, rng):
    x = rand(rng, 3000, "int64")
    y = np.zeros_like(x)
    fn(x, y)
    np.testing.assert_array_equal(y, np.cumsum(x))


@acc.kernels
def two_dependent_loops(x, y, z):
    n = x.shape[0]
    for i in range(n):
        y[i] = x[i] * 2.0
    for i in range(n):
        z[i] = y[n - 1 - i] + 1.0


def test_kernels_loops_run_in_order(rng):
    x = rand(rng, 4000, "float64")
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    two_dependent_loops(x, y, z)
    assert_same(y, 2.0 * x)
    assert_same(z, (2.0 * x)[::-1] + 1.0)


@acc.kernels
def kernels_scalar_only(out, a, b):
    out[0] = a * b + 1


def test_kernels_without_loops(rng):
    out = np.zeros(1, dtype=np.int64)
    a, b = (int(v) for v in rng.integers(2, 1000, 2))
    kernels_scalar_only(out, a, b)
    assert out[0] == a * b + 1


@acc.parallel(num_gangs=5)
def gang_redundant(out, v):
    out[0] = v


def test_gang_redundant_statement(rng):
    out = np.zeros(1)
    v = float(rng.uniform(1, 2))
    gang_redundant(out, v)
    assert out[0] == v


# ---- regions inside @acc.jit ----

@acc.jit
def jit_three_regions(x, y):
    n = x.shape[0]
    with acc.parallel():
        for i in acc.loop(n):
            y[i] = x[i] * 2.0
    with acc.kernels():
        for i in range(n):
            y[i] = y[i] + 1.0
    with acc.serial():
        y[0] = y[n - 1]


def test_jit_parallel_kernels_serial_regions(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    jit_three_regions(x, y)
    want = 2.0 * x + 1.0
    want[0] = want[-1]
    assert_same(y, want)


@acc.jit
def jit_iterate(x, steps):
    n = x.shape[0]
    for it in range(steps):
        with acc.parallel(num_gangs=8, vector_length=32):
            for i in acc.loop(n, gang=True, vector=True):
                x[i] = x[i] * 0.5 + it
    return steps * 2


def test_jit_host_loop_around_region_and_return(rng):
    x = rand(rng, N, "float64")
    want = x.copy()
    for it in range(7):
        want = want * 0.5 + it
    r = jit_iterate(x, 7)
    assert r == 14
    assert_same(x, want)


@acc.jit
def jit_host_only(n):
    s = 0
    k = 1
    while k <= n:
        s += k * k
        k += 1
    return s


@pytest.mark.parametrize("n", [0, 1, 17, 1000])
def test_jit_host_code_without_regions(n):
    assert jit_host_only(n) == jit_host_only.py_func(n) == sum(k * k for k in range(1, n + 1))


@acc.jit
def jit_region_reduction(x):
    s = 0.0
    with acc.parallel(reduction={"+": "s"}):
        for i in acc.loop(x.shape[0], reduction={"+": "s"}):
            s += x[i] * x[i]
    return s


def test_jit_reduction_variable_copied_back(rng):
    x = rand(rng, N, "float64")
    assert abs(jit_region_reduction(x) - float(x @ x)) <= 1e-9 * N


@acc.jit
def jit_region_clauses(x, y, g):
    n = x.shape[0]
    with acc.parallel(copyin=[x], copyout=[y], num_gangs=g, vector_length=64):
        for i in acc.loop(n, gang=True, vector=True):
            y[i] = x[i] - 1.0


def test_jit_region_with_clauses(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    jit_region_clauses(x, y, 6)
    assert_same(y, x - 1.0)


@acc.jit
def jit_firstprivate_host_scalar(x, k):
    c = k * 2
    with acc.parallel():
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] + c
    c = c + 1
    with acc.parallel():
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] * c


def test_jit_host_scalars_enter_regions_by_value(rng):
    x = rand(rng, N, "int64")
    want = (x + 10) * 11
    jit_firstprivate_host_scalar(x, 5)
    np.testing.assert_array_equal(x, want)


@acc.jit
def many_small_regions(x, k):
    for r in range(k):
        with acc.parallel():
            for i in acc.loop(x.shape[0]):
                x[i] += 1


def test_many_small_regions(rng):
    x = rand(rng, 64, "int32")
    want = x + 50
    many_small_regions(x, 50)
    np.testing.assert_array_equal(x, want)
