"""Every dtype of the issue (bool, int8..int64, uint8..uint64, float32, float64,
complex64, complex128) in 1-D, 2-D and 3-D arrays, C and Fortran order, strided and
reversed views, read-only inputs; Python and NumPy scalar arguments keeping their
types; a.shape / a.ndim / len(a) / a.size (mirrors core/001-002, 025, 045, 136-138,
154, 160, 169)."""

import numpy as np
import pytest

from pkutil import ALL_DTYPES, NUM_DTYPES, acc, assert_same, rand


@acc.parallel
def affine_1d(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i] * 3 + 1


@acc.parallel
def affine_2d(x, y):
    n, m = x.shape
    for i in acc.loop(n):
        for j in acc.loop(m):
            y[i, j] = x[i, j] * 3 + 1


@acc.parallel
def affine_3d(x, y):
    for i in acc.loop(x.shape[0], collapse=3):
        for j in range(x.shape[1]):
            for k in range(x.shape[2]):
                y[i, j, k] = x[i, j, k] * 3 + 1


@acc.parallel
def negate_2d(x, y):
    n, m = x.shape
    for i in acc.loop(n):
        for j in acc.loop(m):
            y[i, j] = not x[i, j]


def layouts(rng, dtype, layout):
    """(input, output) arrays of one layout."""
    if layout == "1d":
        x = rand(rng, 257, dtype)
        return x, np.zeros_like(x)
    if layout == "C":
        x = rand(rng, (23, 31), dtype)
        return x, np.zeros_like(x)
    if layout == "F":
        x = np.asfortranarray(rand(rng, (23, 31), dtype))
        return x, np.zeros_like(x, order="F")
    if layout == "strided":  # every other row, every third column of bigger arrays
        big = rand(rng, (46, 93), dtype)
        out = np.zeros((46, 93), dtype=dtype)
        return big[::2, ::3], out[1::2, ::3]
    if layout == "reversed":  # negative strides
        x = rand(rng, (23, 31), dtype)
        return x[::-1, ::-1], np.zeros_like(x)[:, ::-1]
    if layout == "transposed":
        x = rand(rng, (31, 23), dtype)
        return x.T, np.zeros((23, 31), dtype=dtype)
    if layout == "3d":
        x = rand(rng, (5, 7, 9), dtype)
        return x, np.zeros_like(x)
    if layout == "3d_F":
        x = np.asfortranarray(rand(rng, (5, 7, 9), dtype))
        return x, np.zeros_like(x, order="F")
    raise ValueError(layout)


KERNELS = {"1d": affine_1d, "3d": affine_3d, "3d_F": affine_3d}


@pytest.mark.parametrize("layout", ["1d", "C", "F", "strided", "reversed", "transposed", "3d", "3d_F"])
@pytest.mark.parametrize("dtype", NUM_DTYPES)
def test_numeric_dtypes_and_layouts(dtype, layout, rng):
    x, y = layouts(rng, dtype, layout)
    keep = y.base.copy() if y.base is not None else None
    fn = KERNELS.get(layout, affine_2d)
    want = x * 3 + 1  # NEP 50: the literals take the array's dtype
    fn(x, y)
    assert y.dtype == np.dtype(dtype)
    assert_same(y, want, dtype)
    if layout == "strided":  # nothing outside the view was written
        mask = np.ones(y.base.shape, dtype=bool)
        mask[1::2, ::3] = False
        np.testing.assert_array_equal(y.base[mask], keep[mask])


@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed"])
def test_bool_arrays(layout, rng):
    x, y = layouts(rng, "bool", layout)
    negate_2d(x, y)
    np.testing.assert_array_equal(y, ~x)


@acc.parallel
def count_true(mask):
    c = 0
    for i in acc.loop(mask.shape[0], reduction={"+": "c"}):
        if mask[i]:
            c += 1
    return c


def test_bool_array_as_condition(rng):
    m = rng.random(5000) < 0.3
    assert count_true(m) == int(m.sum())


@acc.parallel
def cast_copy(x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i]


@pytest.mark.parametrize("src,dst", [("int8", "int64"), ("uint16", "int32"), ("int32", "float64"), ("float64", "float32"),
                                     ("float32", "complex64"), ("bool", "int32"), ("uint8", "float32"), ("int64", "int64")])
def test_store_converts_like_numpy_setitem(src, dst, rng):
    x = rand(rng, 300, src)
    y = np.zeros(300, dtype=dst)
    cast_copy(x, y)
    np.testing.assert_array_equal(y, x.astype(dst))


def test_read_only_input_array(rng):
    x = rand(rng, 500, "float64")
    x.flags.writeable = False
    y = np.zeros_like(x)
    affine_1d(x, y)
    assert_same(y, x * 3 + 1)


@acc.parallel
def dims(a, out):
    out[0] = a.ndim
    out[1] = len(a)
    out[2] = a.size
    out[3] = a.shape[a.ndim - 1]
    out[4] = a.shape[0]


@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (2, 1, 3, 2)])
def test_shape_ndim_len_size(shape, rng):
    a = rand(rng, shape, "float64")
    out = np.zeros(5, dtype=np.int64)
    dims(a, out)
    np.testing.assert_array_equal(out, [a.ndim, len(a), a.size, a.shape[-1], a.shape[0]])


@acc.parallel
def sum_4d(a, out):
    for i in acc.loop(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                for l in range(a.shape[3]):
                    s += a[i, j, k, l]
        out[i] = s


@pytest.mark.parametrize("order", ["C", "F"])
def test_four_dimensions(order, rng):
    a = np.asarray(rand(rng, (4, 3, 5, 6), "float64"), order=order)
    out = np.zeros(4)
    sum_4d(a, out)
    assert_same(out, a.sum(axis=(1, 2, 3)), rtol=1e-12)


# ---- scalar arguments ----

@acc.parallel
def scale_by(x, y, a):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i] * a


@pytest.mark.parametrize("dtype", NUM_DTYPES)
def test_numpy_scalar_keeps_its_dtype(dtype, rng):
    x = rand(rng, 400, dtype)
    a = np.dtype(dtype).type(7)
    y = np.zeros_like(x)
    scale_by(x, y, a)
    np.testing.assert_array_equal(y, x * a)  # wraps in the dtype, as NumPy does


@pytest.mark.parametrize("a", [3, 2.5, 1.5 - 0.5j, True], ids=["int", "float", "complex", "bool"])
def test_python_scalars(a, rng):
    x = rand(rng, 400, "float64")
    y = np.zeros(400, dtype=np.complex128)
    scale_by(x, y, a)
    assert_same(y, x * a)


@acc.parallel
def int64_from_python_int(x, k):
    for i in acc.loop(x.shape[0]):
        x[i] = k + i


def test_python_int_is_int64(rng):
    x = np.zeros(10, dtype=np.int64)
    big = 2**40 + int(rng.integers(1000))
    int64_from_python_int(x, big)
    np.testing.assert_array_equal(x, big + np.arange(10))


@acc.parallel
def complex_ops(z, w, out):
    for i in acc.loop(z.shape[0]):
        out[i] = z[i] * w[i] - z[i] / w[i] + 2j


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_arithmetic(dtype, rng):
    z = rand(rng, 500, dtype)
    w = rand(rng, 500, dtype)
    out = np.zeros_like(z)
    complex_ops(z, w, out)
    assert_same(out, z * w - z / w + 2j, dtype)


@acc.parallel
def complex_abs(z, out):
    for i in acc.loop(z.shape[0]):
        out[i] = abs(z[i])


def test_complex_abs(rng):
    z = rand(rng, 500, "complex128")
    out = np.zeros(500)
    complex_abs(z, out)
    assert_same(out, np.abs(z))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_zero_size_arrays_of_every_dtype(dtype):
    x = np.zeros((0, 4), dtype=dtype)
    y = np.zeros((0, 4), dtype=dtype)
    (negate_2d if dtype == "bool" else affine_2d)(x, y)
    assert y.shape == (0, 4)


@acc.jit
def echo_scalar_and_element(v, x):
    return v, x[1], x[0] * 2


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_results_of_every_dtype(dtype, rng):
    """A scalar argument, an element and an expression come back whole (complex64 results
    hold both halves in one 8-byte cell slot: PYBUGS pytests #2)."""
    x = rand(rng, 3, dtype) if dtype == "bool" else rand(rng, 3, dtype, 1, 50)  # x[0] * 2 fits int8
    v = x[2]
    got = echo_scalar_and_element(v, x)
    want = echo_scalar_and_element.py_func(v, x)
    assert len(got) == 3
    for g, w in zip(got, want):
        assert g == w, (got, want)
    if np.dtype(dtype).kind == "c":
        assert all(complex(g).imag != 0 for g in got)


# ---- float16: a storage type (elements read as float32, float32 rounded into them) ----

@acc.parallel
def widen(h, f):
    for i in acc.loop(h.shape[0]):
        f[i] = h[i]


@acc.parallel
def narrow(f, h):
    for i in acc.loop(f.shape[0]):
        h[i] = f[i]


def every_float16():
    return np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)


def test_float16_every_bit_pattern_reads_as_numpy_does():
    h = every_float16()
    f = np.zeros(h.shape, np.float32)
    widen(h, f)
    want = h.astype(np.float32)
    same = (f.view(np.uint32) == want.view(np.uint32)) | (np.isnan(f) & np.isnan(want))
    assert same.all(), h[~same][:8]


def test_float16_stores_round_like_numpy_astype(rng):
    """Ties to even, subnormals, overflow to infinity, -0.0, NaN: bit for bit as
    ``astype(np.float16)``."""
    exact = every_float16().astype(np.float32)
    exact = exact[np.isfinite(exact)]
    srt = np.sort(exact)
    ties = ((srt[:-1].astype(np.float64) + srt[1:]) / 2).astype(np.float32)  # halfway: ties to even
    spread = rng.standard_normal(20_000).astype(np.float32) * np.float32(10.0) ** rng.integers(-9, 6, 20_000).astype(np.float32)
    edges = np.array([65504, 65519.99, 65520, 1e9, -1e9, np.inf, -np.inf, np.nan, -0.0, 2**-25, 2**-24, 3 * 2**-26, -1e-30], np.float32)
    f = np.concatenate([exact, ties, spread, edges])
    h = np.zeros(f.shape, np.float16)
    narrow(f, h)
    with np.errstate(over="ignore"):
        want = f.astype(np.float16)
    same = (h.view(np.uint16) == want.view(np.uint16)) | (np.isnan(h) & np.isnan(want))
    assert same.all(), (f[~same][:8], h[~same][:8], want[~same][:8])


@acc.parallel
def half_axpy(a, x, y):
    for i in acc.loop(x.shape[0]):
        y[i] += a * x[i]


@acc.parallel
def half_2d(x, y):
    n, m = x.shape
    for i in acc.loop(n):
        for j in acc.loop(m):
            y[i, j] = x[i, j] * 3 + 1


@pytest.mark.parametrize("layout", ["C", "F", "strided", "reversed"])
def test_float16_layouts_compute_in_float32(layout, rng):
    x, y = layouts(rng, "float16", layout)
    keep = y.base.copy() if y.base is not None else None
    half_2d(x, y)
    want = (x.astype(np.float32) * 3 + 1).astype(np.float16)
    np.testing.assert_array_equal(y, want)
    if keep is not None:  # the view's neighbours are untouched
        mask = np.ones(y.base.shape, bool)
        mask[1::2, ::3] = False
        if layout == "strided":
            np.testing.assert_array_equal(y.base[mask], keep[mask])


def test_float16_augmented_assignment_and_python_scalar(rng):
    x = rand(rng, 3000, "float16")
    y = rand(rng, 3000, "float16")
    want = (y.astype(np.float32) + np.float32(0.25) * x.astype(np.float32)).astype(np.float16)
    half_axpy(0.25, x, y)
    np.testing.assert_array_equal(y, want)


@acc.parallel
def half_sum(x):
    s = np.float32(0)
    for i in acc.loop(x.shape[0], reduction={"+": "s"}):
        s += x[i]
    return s


def test_float16_elements_in_a_float32_reduction(rng):
    x = rand(rng, 5000, "float16")
    assert_same(half_sum(x), x.astype(np.float64).sum(), rtol=1e-5)


@acc.routine
def halve_into(h, i, v):
    h[i] = v * 0.5


@acc.parallel
def call_half_routine(x, h):
    for i in acc.loop(x.shape[0]):
        halve_into(h, i, x[i])


def test_float16_array_passed_to_a_routine(rng):
    x = rand(rng, 500, "float32", -100, 100)
    h = np.zeros(500, np.float16)
    call_half_routine(x, h)
    np.testing.assert_array_equal(h, (x * np.float32(0.5)).astype(np.float16))
    assert "float16[:]" in call_half_routine.signatures[-1]


def test_float16_signature_spelling_compiles_ahead():
    assert half_axpy.compile(("float32", "float16[:]", "float16[:]")) == "float32, float16[:], float16[:]"
