"""Python semantics in kernels: // and % with Python's signs (ints and floats), true
division, **, NumPy 2 (NEP 50) promotion with weak literals, casts, math/NumPy
functions vs NumPy within tolerance, abs/min/max, bitwise operators, tuples and
unpacking, while/break/continue, conditional expressions, comparison chains,
short-circuit boolean operators, augmented assignments, module constants frozen at
compile time (mirrors core/001-006, 033-038, 047, 054 in Python's own terms).

Most tests run the function twice, compiled and as plain Python (`fn.py_func`), on
copies of the same random inputs, and compare every array and the return value."""

import math

import numpy as np
import pytest

from pkutil import FLOAT_DTYPES, SIGNED_DTYPES, acc, assert_same, rand

N = 300


def run_both(fn, *args, rtol=None, atol=None):
    """Run ``fn`` compiled and as Python on copies of ``args``; compare arrays and results."""
    py_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = fn.py_func(*py_args)
    got = fn(*args)
    for a, b in zip(args, py_args):
        if isinstance(a, np.ndarray):
            t = {}
            if a.dtype.kind in "fc":
                single = a.dtype in (np.float32, np.complex64)
                t = dict(rtol=rtol if rtol is not None else (2e-6 if single else 1e-13),
                         atol=atol if atol is not None else (1e-6 if single else 1e-14))
            np.testing.assert_allclose(a, b, equal_nan=True, **t)
    if want is None:
        assert got is None
    else:
        np.testing.assert_allclose(np.asarray(got, dtype=np.asarray(want).dtype), np.asarray(want),
                                   rtol=rtol or 1e-12, atol=atol or 0)
    return got


# ---- // and % ----

@acc.parallel
def floordiv_mod(a, b, q, r):
    for i in acc.loop(a.shape[0]):
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@pytest.mark.parametrize("dtype", SIGNED_DTYPES + ["uint32", "uint64"] + FLOAT_DTYPES)
def test_floordiv_and_mod_python_signs(dtype, rng):
    lo = -100 if np.dtype(dtype).kind in "if" else None
    a = rand(rng, N, dtype, lo, 100 if np.dtype(dtype).kind != "f" else 100.0)
    b = rand(rng, N, dtype, -9 if np.dtype(dtype).kind in "if" else 1, 9)
    if np.dtype(dtype).kind == "f":
        b[np.abs(b) < 0.1] = 0.5
    q = np.zeros_like(a)
    r = np.zeros_like(a)
    floordiv_mod(a, b, q, r)
    np.testing.assert_allclose(q, np.floor_divide(a, b), rtol=1e-6 if dtype == "float32" else 0)
    np.testing.assert_allclose(r, np.remainder(a, b), rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-5)
    if np.dtype(dtype).kind in "if":
        assert (a < 0).any() and (b < 0).any()
    assert ((r == 0) | (np.sign(r) == np.sign(b))).all()


@acc.parallel
def by_literals(a, out):
    for i in acc.loop(a.shape[0]):
        out[i, 0] = a[i] // 3
        out[i, 1] = a[i] % 3
        out[i, 2] = a[i] // -3
        out[i, 3] = a[i] % -3
        out[i, 4] = -a[i] // 4
        out[i, 5] = (a[i] - 50) % 7


def test_floordiv_mod_by_literals(rng):
    a = rand(rng, N, "int64", -1000, 1000)
    out = np.zeros((N, 6), dtype=np.int64)
    run_both(by_literals, a, out)


@acc.parallel
def float_mod_literal(x, out):
    for i in acc.loop(x.shape[0]):
        out[i, 0] = x[i] % 1.5
        out[i, 1] = x[i] % -1.5
        out[i, 2] = x[i] // 0.75
        out[i, 3] = math.fmod(x[i], 1.5)


def test_float_mod_and_fmod_differ(rng):
    x = rand(rng, N, "float64", -10.0, 10.0)
    out = np.zeros((N, 4))
    run_both(float_mod_literal, x, out)
    assert (out[:, 0] != out[:, 3]).any()  # Python % and C fmod differ for negatives


# ---- division, power ----

@acc.parallel
def true_div(a, b, out):
    for i in acc.loop(a.shape[0]):
        out[i] = a[i] / b[i]


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_true_division_of_ints_is_float64(dtype, rng):
    a = rand(rng, N, dtype)
    b = rand(rng, N, dtype)
    out = np.zeros(N)
    true_div(a, b, out)
    assert_same(out, a / b)


@acc.parallel
def int_div_result_type(a, out):
    for i in acc.loop(a.shape[0]):
        h = a[i] / 2
        out[i] = h * 2 - a[i]  # 0 only if `a / 2` kept the fraction


def test_true_division_keeps_fraction(rng):
    a = rand(rng, N, "int64", -1000, 1000)
    out = np.ones(N)
    int_div_result_type(a, out)
    np.testing.assert_array_equal(out, np.zeros(N))


@acc.parallel
def powers(a, e, f, out_i, out_f):
    for i in acc.loop(a.shape[0]):
        out_i[i, 0] = a[i] ** 3
        out_i[i, 1] = a[i] ** e[i]
        out_i[i, 2] = 2 ** e[i]
        out_f[i, 0] = f[i] ** 0.5
        out_f[i, 1] = f[i] ** f[i]
        out_f[i, 2] = f[i] ** e[i]
        out_f[i, 3] = f[i] ** -2


def test_power_int_stays_exact_int(rng):
    a = rand(rng, N, "int64", 2**19, 2**20)  # a**3 ~ 2**60: beyond float64's 53 bits
    e = rand(rng, N, "int64", 0, 12)
    a[: N // 2] = rand(rng, N // 2, "int64", -30, 30)
    f = rand(rng, N, "float64")
    out_i = np.zeros((N, 3), dtype=np.int64)
    out_f = np.zeros((N, 4))
    powers(a, e, f, out_i, out_f)
    np.testing.assert_array_equal(out_i[:, 0], a ** 3)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out_i[: N // 2, 1], a[: N // 2] ** e[: N // 2])
    np.testing.assert_array_equal(out_i[:, 2], 2 ** e)
    assert_same(out_f, np.stack([f ** 0.5, f ** f, f ** e, f ** -2.0], axis=1), rtol=1e-14)


@acc.parallel
def power_f32(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = x[i] ** 2 + x[i] ** 1.5


def test_power_float32(rng):
    x = rand(rng, N, "float32")
    out = np.zeros_like(x)
    power_f32(x, out)
    assert_same(out, x ** 2 + x ** np.float32(1.5), "float32")


# ---- NEP 50 promotion ----

@acc.parallel
def weak_float_literal(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = (x[i] + 1e-9) - x[i]  # f32 + weak float: computed in float32


def test_weak_float_literal_keeps_float32(rng):
    x = rand(rng, N, "float32")
    out = np.full(N, 5.0)
    weak_float_literal(x, out)
    np.testing.assert_array_equal(out, ((x + 1e-9) - x).astype(np.float64))
    assert (out == 0).all()


@acc.parallel
def weak_int_literal(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = x[i] + 1  # int32 + weak int: int32, wraps


def test_weak_int_literal_keeps_int32(rng):
    x = np.full(N, 2**31 - 1, dtype=np.int32)
    x[::2] = rand(rng, N // 2, "int32")
    out = np.zeros(N, dtype=np.int64)
    weak_int_literal(x, out)
    np.testing.assert_array_equal(out, (x + 1).astype(np.int64))
    assert out[1] == -(2**31)


@acc.parallel
def add_two(a, b, out):
    for i in acc.loop(a.shape[0]):
        out[i] = a[i] + b[i]


@pytest.mark.parametrize("ta,tb", [("int32", "int64"), ("uint64", "int64"), ("int64", "float32"), ("float32", "float64"),
                                   ("uint8", "int8"), ("uint32", "int32"), ("int16", "float32"), ("complex64", "float64"),
                                   ("bool", "int8"), ("uint16", "uint64")])
def test_promotion_table(ta, tb, rng):
    a = rand(rng, N, ta)
    b = rand(rng, N, tb)
    if ta == "int32":
        a[:] = 2**31 - 1 - rand(rng, N, "int32", 0, 5)
    if ta == "uint64":
        a[:] = 2**63 + rand(rng, N, "uint64", 1, 2**20)
    if ta == "int64" and tb == "float32":
        a[:] = 2**40 + rand(rng, N, "int64", 1, 999)
        b[:] = 0.5
    want = a + b
    out = np.zeros(N, dtype=np.complex128 if want.dtype.kind == "c" else np.float64 if want.dtype.kind == "f" else want.dtype)
    add_two(a, b, out)
    np.testing.assert_array_equal(out, want.astype(out.dtype))


@acc.parallel
def mixed_scalar_array(x, s, out):
    for i in acc.loop(x.shape[0]):
        # Additions only: a product here could be contracted into an FMA on
        # nvidia, which keeps the 1e-9 even in float32 arithmetic.
        out[i] = (x[i] + s + 1e-9) - (x[i] + s)


@pytest.mark.parametrize("s", [np.float32(3.0), 3.0], ids=["np.float32", "python float"])
def test_strong_vs_python_scalar_argument(s, rng):
    x = rand(rng, N, "float32")
    out = np.full(N, -1.0)
    mixed_scalar_array(x, s, out)
    # a Python float argument is float64 (not weak): the result keeps the 1e-9
    want = (x + s + 1e-9) - (x + s) if isinstance(s, np.floating) else (x.astype(np.float64) + s + 1e-9) - (x.astype(np.float64) + s)
    assert_same(out, want, rtol=1e-6, atol=1e-15)
    assert ((out == 0).all()) == isinstance(s, np.floating)


# ---- casts ----

@acc.parallel
def casts(x, i_out, f_out, u_out):
    for i in acc.loop(x.shape[0]):
        i_out[i, 0] = int(x[i])
        i_out[i, 1] = np.int32(x[i])
        i_out[i, 2] = int(x[i] * 1000) // 7
        f_out[i, 0] = np.float32(x[i])
        f_out[i, 1] = float(int(x[i]))
        f_out[i, 2] = float(i) / 3
        u_out[i, 0] = np.uint8(int(x[i] * 100))
        u_out[i, 1] = bool(int(x[i]))


def test_casts_truncate_and_round(rng):
    x = rand(rng, N, "float64", -9.0, 9.0)
    i_out = np.zeros((N, 3), dtype=np.int64)
    f_out = np.zeros((N, 3))
    u_out = np.zeros((N, 2), dtype=np.uint8)
    casts(x, i_out, f_out, u_out)
    np.testing.assert_array_equal(i_out[:, 0], np.trunc(x).astype(np.int64))
    np.testing.assert_array_equal(i_out[:, 1], x.astype(np.int32))
    np.testing.assert_array_equal(i_out[:, 2], np.floor_divide(np.trunc(x * 1000).astype(np.int64), 7))
    np.testing.assert_array_equal(f_out[:, 0], x.astype(np.float32).astype(np.float64))
    np.testing.assert_array_equal(f_out[:, 1], np.trunc(x))
    np.testing.assert_array_equal(f_out[:, 2], np.arange(N) / 3)
    np.testing.assert_array_equal(u_out[:, 0], np.trunc(x * 100).astype(np.int64).astype(np.uint8))
    np.testing.assert_array_equal(u_out[:, 1], np.trunc(x) != 0)
    assert (x < 0).any()


@acc.parallel
def narrow_local(x, out):
    for i in acc.loop(x.shape[0]):
        t = np.float32(0.0)
        t = x[i] * 3.0  # same kind: float64 stored into a float32 local
        out[i] = t


def test_same_kind_narrowing_of_a_local(rng):
    x = rand(rng, N, "float64")
    out = np.zeros(N)
    narrow_local(x, out)
    np.testing.assert_array_equal(out, (x * 3.0).astype(np.float32).astype(np.float64))


# ---- math and NumPy functions ----

def _vec(f):
    return lambda *xs: np.vectorize(f, otypes=[np.float64])(*xs)


UNARY = {  # name: (kernel callable, reference, domain)
    "math.sqrt": (math.sqrt, np.sqrt, (0.01, 100)),
    "math.exp": (math.exp, np.exp, (-20, 20)),
    "math.log": (math.log, np.log, (0.01, 100)),
    "math.log2": (math.log2, np.log2, (0.01, 100)),
    "math.log10": (math.log10, np.log10, (0.01, 100)),
    "math.sin": (math.sin, np.sin, (-10, 10)),
    "math.cos": (math.cos, np.cos, (-10, 10)),
    "math.tan": (math.tan, np.tan, (-1.4, 1.4)),
    "math.asin": (math.asin, np.arcsin, (-0.99, 0.99)),
    "math.acos": (math.acos, np.arccos, (-0.99, 0.99)),
    "math.atan": (math.atan, np.arctan, (-50, 50)),
    "math.sinh": (math.sinh, np.sinh, (-5, 5)),
    "math.cosh": (math.cosh, np.cosh, (-5, 5)),
    "math.tanh": (math.tanh, np.tanh, (-5, 5)),
    "math.floor": (math.floor, np.floor, (-50, 50)),
    "math.ceil": (math.ceil, np.ceil, (-50, 50)),
    "math.fabs": (math.fabs, np.fabs, (-50, 50)),
    "math.trunc": (math.trunc, np.trunc, (-50, 50)),
    "math.erf": (math.erf, _vec(math.erf), (-3, 3)),
    "math.erfc": (math.erfc, _vec(math.erfc), (-3, 3)),
    "math.gamma": (math.gamma, _vec(math.gamma), (0.1, 10)),
    "math.lgamma": (math.lgamma, _vec(math.lgamma), (0.1, 30)),
    "math.expm1": (math.expm1, np.expm1, (-1e-3, 1e-3)),
    "math.log1p": (math.log1p, np.log1p, (-1e-3, 1e-3)),
    "np.sqrt": (np.sqrt, np.sqrt, (0.01, 100)),
    "np.exp": (np.exp, np.exp, (-20, 20)),
    "np.log": (np.log, np.log, (0.01, 100)),
    "np.sin": (np.sin, np.sin, (-10, 10)),
    "np.cos": (np.cos, np.cos, (-10, 10)),
    "np.tanh": (np.tanh, np.tanh, (-5, 5)),
    "np.floor": (np.floor, np.floor, (-50, 50)),
    "np.cbrt": (np.cbrt, np.cbrt, (-50, 50)),
    "np.abs": (np.abs, np.abs, (-50, 50)),
}


def unary_kernel(f):
    @acc.parallel
    def k(x, out):
        for i in acc.loop(x.shape[0]):
            out[i] = f(x[i])

    return k


UNARY_KERNELS = {}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", list(UNARY))
def test_math_function(name, dtype, rng):
    f, ref, (lo, hi) = UNARY[name]
    if name not in UNARY_KERNELS:
        UNARY_KERNELS[name] = unary_kernel(f)
    k = UNARY_KERNELS[name]
    x = rng.uniform(lo, hi, N).astype(dtype)
    out = np.zeros(N, dtype=dtype)
    k(x, out)
    want = ref(x.astype(np.float64)).astype(dtype)
    single = dtype == "float32"
    np.testing.assert_allclose(out, want, rtol=4e-6 if single else 1e-13, atol=1e-6 if single else 1e-15, err_msg=name)


BINARY = {
    "math.atan2": (math.atan2, np.arctan2, (-5, 5)),
    "math.pow": (math.pow, np.power, (0.1, 3)),
    "math.hypot": (math.hypot, np.hypot, (-5, 5)),
    "math.copysign": (math.copysign, np.copysign, (-5, 5)),
    "math.fmod": (math.fmod, np.fmod, (-5, 5)),
    "np.hypot": (np.hypot, np.hypot, (-5, 5)),
    "np.copysign": (np.copysign, np.copysign, (-5, 5)),
}


def binary_kernel(f):
    @acc.parallel
    def k(x, y, out):
        for i in acc.loop(x.shape[0]):
            out[i] = f(x[i], y[i])

    return k


BINARY_KERNELS = {}


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("name", list(BINARY))
def test_math_function_of_two(name, dtype, rng):
    f, ref, (lo, hi) = BINARY[name]
    if name not in BINARY_KERNELS:
        BINARY_KERNELS[name] = binary_kernel(f)
    k = BINARY_KERNELS[name]
    x = rng.uniform(lo, hi, N).astype(dtype)
    y = rng.uniform(lo, hi, N).astype(dtype)
    out = np.zeros(N, dtype=dtype)
    k(x, y, out)
    want = ref(x.astype(np.float64), y.astype(np.float64)).astype(dtype)
    single = dtype == "float32"
    np.testing.assert_allclose(out, want, rtol=4e-6 if single else 1e-13, atol=1e-6 if single else 1e-15, err_msg=name)


@acc.parallel
def classify(x, out):
    for i in acc.loop(x.shape[0]):
        out[i, 0] = math.isnan(x[i])
        out[i, 1] = math.isinf(x[i])
        out[i, 2] = math.isfinite(x[i])
        out[i, 3] = np.isnan(x[i]) or np.isinf(x[i])


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_isnan_isinf_isfinite(dtype, rng):
    x = rand(rng, N, dtype, -5.0, 5.0)
    x[rng.choice(N, 20, replace=False)] = np.nan
    x[rng.choice(N, 10, replace=False)] = np.inf
    x[rng.choice(N, 10, replace=False)] = -np.inf
    out = np.zeros((N, 4), dtype=bool)
    classify(x, out)
    np.testing.assert_array_equal(out, np.stack([np.isnan(x), np.isinf(x), np.isfinite(x), ~np.isfinite(x)], axis=1))


@acc.parallel
def int_abs_min_max(a, b, out):
    for i in acc.loop(a.shape[0]):
        out[i, 0] = abs(a[i])
        out[i, 1] = min(a[i], b[i])
        out[i, 2] = max(a[i], b[i], 0)
        out[i, 3] = min(a[i], 5)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16"])
def test_abs_min_max_on_ints(dtype, rng):
    a = rand(rng, N, dtype)
    b = rand(rng, N, dtype)
    out = np.zeros((N, 4), dtype=np.int64)
    run_both(int_abs_min_max, a, b, out)


@acc.parallel
def float_abs_min_max(x, y, out):
    for i in acc.loop(x.shape[0]):
        out[i, 0] = abs(x[i])
        out[i, 1] = min(x[i], y[i])
        out[i, 2] = max(x[i], y[i])
        out[i, 3] = min(x[i], y[i], 0.0)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
def test_abs_min_max_on_floats(dtype, rng):
    x = rand(rng, N, dtype, -5.0, 5.0)
    y = rand(rng, N, dtype, -5.0, 5.0)
    out = np.zeros((N, 4), dtype=dtype)
    float_abs_min_max(x, y, out)
    want = np.stack([np.abs(x), np.minimum(x, y), np.maximum(x, y), np.minimum(np.minimum(x, y), 0)], axis=1)
    np.testing.assert_array_equal(out, want)


@acc.parallel
def mixed_max(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = max(x[i], 1)  # float and int: float


def test_max_of_float_and_int(rng):
    x = rand(rng, N, "float64", -3.0, 3.0)
    out = np.zeros(N)
    mixed_max(x, out)
    assert_same(out, np.maximum(x, 1.0))


# ---- bitwise ----

@acc.parallel
def bit_ops(a, b, out):
    for i in acc.loop(a.shape[0]):
        out[i, 0] = a[i] & b[i]
        out[i, 1] = a[i] | b[i]
        out[i, 2] = a[i] ^ b[i]
        out[i, 3] = ~a[i]
        out[i, 4] = a[i] << 3
        out[i, 5] = a[i] >> 2
        out[i, 6] = -a[i]


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint32", "int64", "uint64"])
def test_bitwise_and_unary_operators(dtype, rng):
    a = rand(rng, N, dtype, None, None)
    b = rand(rng, N, dtype)
    out = np.zeros((N, 7), dtype=dtype)
    bit_ops(a, b, out)
    with np.errstate(over="ignore"):
        want = np.stack([a & b, a | b, a ^ b, ~a, a << 3, a >> 2, -a], axis=1).astype(dtype)
    np.testing.assert_array_equal(out, want)


@acc.parallel
def bool_logic(p, q, out):
    for i in acc.loop(p.shape[0]):
        out[i, 0] = p[i] and q[i]
        out[i, 1] = p[i] or q[i]
        out[i, 2] = not p[i]
        out[i, 3] = p[i] & q[i]
        out[i, 4] = p[i] ^ q[i]
        out[i, 5] = p[i] != q[i]


def test_bool_operators(rng):
    p = rng.random(N) < 0.5
    q = rng.random(N) < 0.5
    out = np.zeros((N, 6), dtype=bool)
    run_both(bool_logic, p, q, out)


# ---- control flow and tuples ----

@acc.parallel
def classify_sign(x, out):
    for i in acc.loop(x.shape[0]):
        if x[i] < -0.5:
            out[i] = -2
        elif x[i] < 0.0:
            out[i] = -1
        elif x[i] == 0.0:
            out[i] = 0
        else:
            out[i] = 1 if x[i] < 0.5 else 2


def test_if_elif_else_and_conditional_expression(rng):
    x = rand(rng, N, "float64", -1.0, 1.0)
    x[::37] = 0.0
    out = np.full(N, 9, dtype=np.int64)
    run_both(classify_sign, x, out)
    assert set(np.unique(out)) == {-2, -1, 0, 1, 2}


@acc.parallel
def chains(x, lo, hi, out):
    for i in acc.loop(x.shape[0]):
        out[i, 0] = lo < x[i] <= hi
        out[i, 1] = lo <= x[i] < hi < 100
        out[i, 2] = not (x[i] > lo) or x[i] == hi


def test_comparison_chains(rng):
    x = rand(rng, N, "int64", -20, 20)
    out = np.zeros((N, 3), dtype=bool)
    run_both(chains, x, -5, 7, out)
    assert out[:, 0].any() and not out[:, 0].all()


@acc.parallel
def short_circuit(x, t, calls, out):
    for i in acc.loop(x.shape[0]):
        if x[i] > t or acc.atomic.add(calls, 0, 1) < 0:
            out[i] = 1
        if x[i] > t and acc.atomic.add(calls, 1, 1) >= 0:
            out[i] += 10


def test_or_and_short_circuit(rng):
    x = rand(rng, N, "float64", 0.0, 1.0)
    calls = np.zeros(2, dtype=np.int64)
    out = np.zeros(N, dtype=np.int64)
    short_circuit(x, 0.7, calls, out)
    assert calls[0] == int((x <= 0.7).sum())  # the right side ran only when the left was False
    assert calls[1] == int((x > 0.7).sum())   # ... and only when the left was True
    np.testing.assert_array_equal(out, np.where(x > 0.7, 11, 0))


@acc.parallel
def tuples(x, y, out):
    for i in acc.loop(x.shape[0]):
        a, b = x[i], y[i]
        if a > b:
            a, b = b, a
        t = (a, b, a + b)
        p, q, r = t
        out[i, 0] = p
        out[i, 1] = q
        out[i, 2] = r


def test_tuples_swap_and_unpacking(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    out = np.zeros((N, 3))
    tuples(x, y, out)
    assert_same(out, np.stack([np.minimum(x, y), np.maximum(x, y), x + y], axis=1))


@acc.parallel
def aug_assign(a, out):
    for i in acc.loop(a.shape[0]):
        v = a[i]
        v += 7
        v -= 3
        v *= 5
        v //= 3
        v %= 1000
        v **= 2
        v <<= 2
        v >>= 1
        v &= 0xFFFFF
        v |= 0x100
        v ^= 0x55
        out[i] = v


def test_augmented_assignments(rng):
    a = rand(rng, N, "int64", -500, 500)
    out = np.zeros(N, dtype=np.int64)
    run_both(aug_assign, a, out)
    assert (out != 0).all()


@acc.parallel
def array_aug_assign(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] += x[i]
        y[i] *= 2
        y[i] -= 1
        y[i] /= 4


def test_augmented_assignment_to_elements(rng):
    x = rand(rng, N, "float64")
    y = rand(rng, N, "float64")
    run_both(array_aug_assign, x, y)


@acc.parallel
def int_overflow_wraps(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = x[i] * 6364136223846793005 + 1442695040888963407


def test_int64_arithmetic_wraps_like_numpy(rng):
    x = rand(rng, N, "int64", 1, 2**62)
    out = np.zeros(N, dtype=np.int64)
    int_overflow_wraps(x, out)
    with np.errstate(over="ignore"):
        want = x * np.int64(6364136223846793005) + np.int64(1442695040888963407)
    np.testing.assert_array_equal(out, want)


# ---- module constants ----

SCALE = 3
OFFSET = 0.25
F32_STEP = np.float32(1e-9)
FLAG = True
PHASE = 0.5 + 2.0j


@acc.parallel
def use_constants(x, out, z):
    for i in acc.loop(x.shape[0]):
        out[i] = x[i] * SCALE + OFFSET if FLAG else 0.0
        z[i] = x[i] * PHASE


def test_module_constants_frozen_at_first_compile(rng):
    global SCALE
    x = rand(rng, N, "float64")
    out = np.zeros(N)
    z = np.zeros(N, dtype=np.complex128)
    use_constants(x, out, z)
    assert_same(out, x * 3 + 0.25)
    assert_same(z, x * (0.5 + 2.0j))
    SCALE = 100  # a compiled specialisation keeps the value it was compiled with
    try:
        use_constants(x, out, z)
        assert_same(out, x * 3 + 0.25)
    finally:
        SCALE = 3


@acc.parallel
def f32_constant(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = (x[i] + F32_STEP) - x[i]


def test_numpy_scalar_constant_keeps_dtype(rng):
    x = rand(rng, N, "float32")
    out = np.full(N, 1.0)
    f32_constant(x, out)
    np.testing.assert_array_equal(out, np.zeros(N))


def test_closure_variables_are_constants(rng):
    k = int(rng.integers(2, 50))

    @acc.parallel
    def add_k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] + k

    x = rand(rng, N, "int64")
    want = x + k
    add_k(x)
    np.testing.assert_array_equal(x, want)
