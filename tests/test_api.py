"""The Python API: acc.c, calling C functions with arrays and scalars, the
compile cache, the runtime data API."""

import time

import numpy as np
import pytest

import accjit as acc

SAXPY = r"""
void saxpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


def test_saxpy_matches_numpy(rng):
    lib = acc.c(SAXPY)
    n = 100_003
    x = rng.random(n, dtype=np.float32)
    y0 = rng.random(n, dtype=np.float32)
    y = y0.copy()
    assert lib.saxpy(n, 2.5, x, y) is None
    np.testing.assert_allclose(y, np.float32(2.5) * x + y0, rtol=1e-6)


def test_signature_in_doc():
    lib = acc.c(SAXPY)
    assert lib.saxpy.__doc__.splitlines()[0] == "void saxpy(int n, float a, const float *x, float *y)"
    assert lib.saxpy.signature == "void saxpy(int n, float a, const float *x, float *y)"
    assert "float32" in lib.saxpy.__doc__
    assert "saxpy" in dir(lib)


# One kernel per C type: c[i] = a[i] * k + b[i] (integer types wrap like C).
C_TYPES = [
    ("signed char", np.int8),
    ("unsigned char", np.uint8),
    ("short", np.int16),
    ("unsigned short", np.uint16),
    ("int", np.int32),
    ("unsigned int", np.uint32),
    ("long", np.int64),
    ("unsigned long", np.uint64),
    ("long long", np.int64),
    ("float", np.float32),
    ("double", np.float64),
]


@pytest.mark.parametrize("ctype,dtype", C_TYPES, ids=[c for c, _ in C_TYPES])
def test_many_dtypes(ctype, dtype, rng):
    src = f"""
    void axpb(int n, {ctype} k, const {ctype} *a, const {ctype} *b, {ctype} *c) {{
        #pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
        for (int i = 0; i < n; i++) c[i] = ({ctype})(a[i] * k + b[i]);
    }}
    """
    lib = acc.c(src)
    n = 1000
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        a = rng.integers(max(info.min, -50), min(info.max, 50), n).astype(dtype)
        b = rng.integers(max(info.min, -50), min(info.max, 50), n).astype(dtype)
        k = 3
    else:
        a = rng.random(n).astype(dtype)
        b = rng.random(n).astype(dtype)
        k = 1.5
    c = np.zeros(n, dtype=dtype)
    lib.axpb(n, k, a, b, c)
    with np.errstate(over="ignore"):
        expect = (a * dtype(k) + b).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        np.testing.assert_allclose(c, expect, rtol=1e-6)
    else:
        np.testing.assert_array_equal(c, expect)


def test_scalar_returns_and_conversions():
    lib = acc.c(r"""
    int iadd(int a, int b) { return a + b; }
    long lmul(long a, long b) { return a * b; }
    unsigned int uneg(unsigned int a) { return -a; }
    double half(double x) { return x / 2; }
    float fsq(float x) { return x * x; }
    _Bool is_pos(double x) { return x > 0; }
    char cid(char c) { return c; }
    void nothing(void) { }
    """)
    assert lib.iadd(2, 3) == 5
    assert lib.iadd(-7, 2) == -5
    assert lib.iadd(2**31 - 1, 1) == -(2**31)  # C int wraps
    assert lib.lmul(2**40, 3) == 3 * 2**40
    assert lib.uneg(1) == 2**32 - 1
    assert lib.half(3) == 1.5  # an int is fine for double
    assert lib.half(np.float64(5.0)) == 2.5
    assert lib.fsq(1.5) == pytest.approx(2.25)
    assert lib.is_pos(2.0) is True and lib.is_pos(-1.0) is False
    assert lib.cid(-5) == -5
    assert lib.nothing() is None
    assert lib.iadd(True, 1) == 2
    assert lib.iadd(np.int32(4), np.int64(5)) == 9
    # keyword arguments bind by C parameter name
    assert lib.iadd(b=10, a=1) == 11


def test_reduction_and_2d(rng):
    lib = acc.c(r"""
    double total(long n, const double *x) {
        double s = 0.0;
        #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
        for (long i = 0; i < n; i++) s += x[i];
        return s;
    }
    void jacobi(int m, const float *a, float *b) {
        #pragma acc parallel loop collapse(2) copyin(a[0:m*m]) copy(b[0:m*m])
        for (int i = 1; i < m - 1; i++)
            for (int j = 1; j < m - 1; j++)
                b[i*m + j] = 0.25f * (a[(i-1)*m + j] + a[(i+1)*m + j] + a[i*m + j-1] + a[i*m + j+1]);
    }
    """)
    x = rng.random(1_000_001)
    assert lib.total(x.size, x) == pytest.approx(x.sum(), rel=1e-12)
    m = 257
    a = rng.random((m, m), dtype=np.float32)
    b = np.zeros_like(a)
    lib.jacobi(m, a, b)
    ref = np.zeros_like(a)
    ref[1:-1, 1:-1] = np.float32(0.25) * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    np.testing.assert_allclose(b, ref, rtol=1e-6)


def test_null_pointer_and_void_pointer():
    lib = acc.c(r"""
    #include <string.h>
    int is_null(const double *p) { return p == 0; }
    void zero(void *p, long bytes) { memset(p, 0, bytes); }
    """)
    assert lib.is_null(None) == 1
    assert lib.is_null(np.zeros(3)) == 0
    a = np.arange(10, dtype=np.int16)
    lib.zero(a, a.nbytes)
    assert not a.any()


def test_contiguous_slices_are_accepted():
    lib = acc.c("void inc(int n, int *a) { for (int i = 0; i < n; i++) a[i] += 1; }")
    a = np.zeros(10, dtype=np.int32)
    lib.inc(4, a[3:7])
    assert a.tolist() == [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]


def test_cache_hit_is_fast_and_same_module():
    src = SAXPY + "\n/* test_cache_hit_is_fast_and_same_module */\n"
    before = acc.cache_stats()
    first = acc.c(src)
    assert not first.from_cache
    t = time.perf_counter()
    second = acc.c(src)
    dt = time.perf_counter() - t
    after = acc.cache_stats()
    assert second.from_cache
    assert after["compilations"] - before["compilations"] == 1
    assert after["hits"] - before["hits"] == 1
    assert dt < 0.005, f"cached compile took {dt * 1e3:.2f} ms"
    t = time.perf_counter()
    for _ in range(100):
        acc.c(src)
    per = (time.perf_counter() - t) / 100
    assert per < 0.001, f"cached compile takes {per * 1e3:.3f} ms"


def test_different_defines_make_different_modules():
    src = "int value(void) { return VALUE; }"
    a = acc.c(src, defines={"VALUE": 3})
    b = acc.c(src, defines=["VALUE=4"])
    c = acc.c(src, defines=[("VALUE", "3")])
    assert a.value() == 3
    assert b.value() == 4
    assert c.value() == 3 and c.from_cache


def test_include_dirs_and_header_change(tmp_path):
    (tmp_path / "k.h").write_text("#define K 11\n")
    src = '#include "k.h"\nint k(void) { return K; }\n'
    assert acc.c(src, include_dirs=[tmp_path]).k() == 11
    (tmp_path / "k.h").write_text("#define K 12\n")
    lib = acc.c(src, include_dirs=[tmp_path])
    assert not lib.from_cache
    assert lib.k() == 12


def test_timings_and_ir():
    lib = acc.c("int sq(int x) { return x * x; }", keep_clif=True)
    t = lib.timings
    assert set(t) >= {"parse", "lower", "codegen", "total"}
    assert t["total"] >= t["codegen"] >= 0
    assert "sq" in lib.ir()
    assert "function" in lib.clif()


def test_threads_setting():
    old = acc.get_num_threads()
    try:
        acc.set_num_threads(3)
        assert acc.get_num_threads() == 3
        lib = acc.c(SAXPY)
        x = np.ones(1000, dtype=np.float32)
        y = np.ones(1000, dtype=np.float32)
        lib.saxpy(1000, 1.0, x, y)
        assert (y == 2).all()
    finally:
        acc.set_num_threads(old)
    with pytest.raises(ValueError):
        acc.set_num_threads(0)


def test_device_type_host_and_multicore():
    assert acc.get_device_type() in acc.device_types()
    lib_h = acc.c(SAXPY, device_type="host")
    lib_m = acc.c(SAXPY, device_type="multicore")
    assert lib_h.device_type == "host" and lib_m.device_type == "multicore"
    x = np.arange(100, dtype=np.float32)
    y1 = np.ones(100, dtype=np.float32)
    y2 = np.ones(100, dtype=np.float32)
    # Kernels run on the current device: each module on the type it was compiled for.
    old = acc.get_device_type()
    try:
        acc.set_device_type("host")
        lib_h.saxpy(100, 3.0, x, y1)
        acc.set_device_type("multicore")
        lib_m.saxpy(100, 3.0, x, y2)
    finally:
        acc.set_device_type(old)
    np.testing.assert_array_equal(y1, y2)


def test_data_api_reference_counts():
    a = np.zeros(64)
    assert not acc.is_present(a)
    acc.copyin(a)
    assert acc.is_present(a)
    assert acc.ref_counts(a) == (0, 1)
    acc.copyin(a)
    assert acc.ref_counts(a) == (0, 2)
    acc.delete(a)
    acc.copyout(a)
    assert not acc.is_present(a)
    with acc.data(copy=[a], create=[np.empty(3)]):
        assert acc.is_present(a)
        assert acc.ref_counts(a) == (1, 0)
        acc.update_self(a)
        acc.update_device(a)
    assert not acc.is_present(a)


def test_data_region_around_kernels(rng):
    lib = acc.c(r"""
    void scale(int n, double s, double *a) {
        #pragma acc parallel loop present(a[0:n])
        for (int i = 0; i < n; i++) a[i] *= s;
    }
    """)
    a = rng.random(1000)
    ref = a * 8
    with acc.data(copy=[a]):
        for _ in range(3):
            lib.scale(a.size, 2.0, a)
    np.testing.assert_allclose(a, ref)


def test_ctrl_c_interrupts_a_long_call():
    import os
    import signal
    import threading

    lib = acc.c(r"""
    long spin(volatile int *stop) {
        long k = 0;
        while (!stop[0]) k++;
        return k;
    }
    """)
    stop = np.zeros(1, dtype=np.int32)
    # CI may start us with SIGINT ignored (background jobs of a non-interactive
    # shell): install Python's handler for this test.
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    # Never hang: release the spin after 10 s whatever happens.
    safety = threading.Timer(10.0, lambda: stop.__setitem__(0, 1))
    timer.start()
    safety.start()
    t = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            lib.spin(stop)
        assert time.perf_counter() - t < 2.0
    finally:
        stop[0] = 1  # lets the abandoned call finish on its worker thread
        timer.cancel()
        safety.cancel()
        signal.signal(signal.SIGINT, old_handler)
    time.sleep(0.05)
    assert lib.spin(np.ones(1, dtype=np.int32)) == 0  # the module still works


@pytest.mark.parametrize("device", ["multicore", "host"])
def test_ctrl_c_interrupts_a_long_compute_kernel(device):
    """A compute kernel whose gangs spin: Ctrl-C raises KeyboardInterrupt within
    ~1 s although every gang (also one the waiting Python thread could run as a
    pool guest) is busy. Short calls come first, so that the guest fast path is
    on for calls like them."""
    import os
    import signal
    import threading

    lib = acc.c(r"""
    void spin_gangs(const volatile int *stop, long *count, long limit) {
        #pragma acc parallel loop num_gangs(8) gang
        for (int g = 0; g < 8; g++) {
            long k = 0;
            while (stop[0] == 0 && k < limit) k++;
            #pragma acc atomic update
            count[0] += k;
        }
    }
    """, device_type=device)
    old_device = acc.get_device_type()
    acc.set_device_type(device)
    count = np.zeros(1, dtype=np.int64)
    stop = np.zeros(1, dtype=np.int32)
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
    safety = threading.Timer(10.0, lambda: stop.__setitem__(0, 1))
    try:
        for _ in range(3):
            lib.spin_gangs(np.ones(1, np.int32), count, 10)
        assert count[0] == 0
        timer.start()
        safety.start()
        t = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            lib.spin_gangs(stop, count, 1 << 40)
        took = time.perf_counter() - t
        assert took < 1.2, f"KeyboardInterrupt came {took:.2f} s after the call began (Ctrl-C at 0.2 s)"
    finally:
        stop[0] = 1  # the abandoned kernel ends
        timer.cancel()
        safety.cancel()
        signal.signal(signal.SIGINT, old_handler)
        acc.wait()
        time.sleep(0.1)
        acc.set_device_type(old_device)
    fresh = np.zeros(1, dtype=np.int64)
    acc.set_device_type(device)
    try:
        lib.spin_gangs(np.zeros(1, np.int32), fresh, 5)
    finally:
        acc.set_device_type(old_device)
    assert fresh[0] == 8 * 5, "the module still works"


def test_gil_is_released_during_calls():
    import threading

    lib = acc.c(r"""
    long spin2(volatile int *stop) { long k = 0; while (!stop[0]) k++; return k; }
    """)
    stop = np.zeros(1, dtype=np.int32)
    result = []
    th = threading.Thread(target=lambda: result.append(lib.spin2(stop)))
    th.start()
    # If the GIL were held, this sleep would not return until spin2 did.
    time.sleep(0.05)
    # The main thread runs Python while the native call spins.
    stop[0] = 1
    th.join(5)
    assert not th.is_alive() and result and result[0] > 0


# The notebooks run in a Jupyter kernel: tests/test_notebooks.py.


def test_module_freed_while_async_work_is_queued():
    import gc

    src = r"""
    void slow(long n, double *a) {
        #pragma acc parallel loop async(1) copy(a[0:n])
        for (long i = 0; i < n; i++) {
            double s = a[i];
            for (int k = 0; k < 100; k++) s = s * 0.5 + 1.0;
            a[i] = s;
        }
    }
    /* test_module_freed_while_async_work_is_queued */
    """
    a = np.zeros(200_000)
    lib = acc.c(src)
    lib.slow(a.size, a)
    acc.clear_cache()
    del lib
    gc.collect()  # dropping the program waits for its queued kernels before freeing code
    acc.wait()
    np.testing.assert_allclose(a, 2.0)
