"""The OpenACC data API on NumPy arrays (docs/data-environment.md): every
routine on 1-D arrays, slices and 2-D arrays in C and Fortran order,
reference counting, device memory, async, device management, `acc.data`
regions, errors, and kernels run in between compared with NumPy.

On the multicore device the device copy of mapped data *is* the host array,
so tests that must see bytes move use `acc.map_data` onto `acc.malloc`
memory: then the device copy lives elsewhere, exactly as on a discrete GPU.
The tests hold on a discrete device too (nvidia, or the host device with
ACCJIT_DISCRETE_HOST=1): where shared memory shows, they ask `SHARED`.
"""

import numpy as np
import pytest

import accjit as acc

# The current device shares memory with the host (multicore, host): device
# addresses of present data are the host addresses.
SHARED = acc.get_property("shared_memory_support") == 1


@pytest.fixture(autouse=True)
def no_leaks():
    """Every test leaves the present table as it found it."""
    before = {(e["host"], e["bytes"]) for e in acc.present_table()}
    yield
    acc.wait()
    after = {(e["host"], e["bytes"]) for e in acc.present_table()}
    assert after <= before, f"test left data present: {after - before}"


@pytest.fixture(scope="module")
def lib():
    return acc.c(r"""
    void scale(int n, double s, double *a) {
        #pragma acc parallel loop present(a[0:n])
        for (int i = 0; i < n; i++) a[i] *= s;
    }
    void axpy(int n, double a, const double *x, double *y) {
        #pragma acc parallel loop present(x[0:n], y[0:n])
        for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
    }
    /* b = a + a^T-neighbour sum on an n x m row-major grid */
    void smooth(int n, int m, const float *a, float *b) {
        #pragma acc parallel loop collapse(2) present(a[0:n*m], b[0:n*m])
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) {
                float s = a[i*m + j];
                if (j > 0) s += a[i*m + j - 1];
                if (j < m - 1) s += a[i*m + j + 1];
                b[i*m + j] = s;
            }
    }
    double total(int n, const double *a) {
        double s = 0.0;
        #pragma acc parallel loop reduction(+:s) present(a[0:n])
        for (int i = 0; i < n; i++) s += a[i];
        return s;
    }
    void scale_async(int n, double s, double *a) {
        #pragma acc parallel loop present(a[0:n]) async(3)
        for (int i = 0; i < n; i++) a[i] *= s;
    }
    """, name="test_data_api.c")


def addr(a):
    return a.__array_interface__["data"][0]


# --- 1-D arrays, reference counts ---------------------------------------------


def test_copyin_delete_counts_1d():
    x = np.arange(100.0)
    assert not acc.is_present(x) and acc.ref_counts(x) is None
    acc.copyin(x)
    assert acc.is_present(x) and acc.ref_counts(x) == (0, 1)
    acc.copyin(x)
    acc.create(x)  # present already: only the count moves
    assert acc.ref_counts(x) == (0, 3)
    acc.delete(x)
    assert acc.ref_counts(x) == (0, 2)
    acc.copyout(x)
    assert acc.ref_counts(x) == (0, 1)
    acc.delete(x)
    assert not acc.is_present(x)


@pytest.mark.parametrize("routine", ["copyout", "delete"])
def test_finalize_drops_all_dynamic_references(routine):
    x = np.ones(10)
    for _ in range(4):
        acc.copyin(x)
    assert acc.ref_counts(x) == (0, 4)
    getattr(acc, routine)(x, finalize=True)
    assert not acc.is_present(x)


def test_create_and_copyout_1d():
    x = np.zeros(16, dtype=np.int32)
    acc.create(x)
    assert acc.is_present(x) and acc.ref_counts(x) == (0, 1)
    acc.copyout(x)
    assert not acc.is_present(x)


def test_update_device_and_self_need_presence():
    x = np.arange(8.0)
    acc.copyin(x)
    acc.update_device(x)
    acc.update_self(x)
    acc.update_self(x[2:5])
    acc.delete(x)
    with pytest.raises(acc.NotPresentError):
        acc.update_device(x)


# --- slices (views) ------------------------------------------------------------


def test_slices_are_sub_ranges_of_present_data():
    x = np.arange(1000.0)
    acc.copyin(x)
    assert acc.is_present(x[10:20])
    assert acc.is_present(x[999:])
    assert acc.deviceptr(x[10:20]) == acc.deviceptr(x) + 10 * 8
    # A slice copied in again only counts on the entry that contains it.
    acc.copyin(x[10:20])
    assert acc.ref_counts(x) == (0, 2)
    acc.delete(x[10:20])
    acc.delete(x)
    assert not acc.is_present(x[10:20])


def test_present_slice_does_not_make_the_whole_array_present():
    x = np.arange(100.0)
    acc.copyin(x[20:40])
    assert acc.is_present(x[25:30])
    assert not acc.is_present(x)
    assert not acc.is_present(x[10:30])
    assert acc.ref_counts(x[20:40]) == (0, 1)
    acc.delete(x[20:40])


def test_update_self_on_a_slice_moves_only_those_bytes(lib):
    x = np.arange(100.0)
    d = acc.malloc(x.nbytes)
    acc.map_data(x, d)
    try:
        acc.update_device(x)  # device copy = x
        lib.scale(x.size, 2.0, x)  # runs on the device copy only
        np.testing.assert_array_equal(x, np.arange(100.0))
        acc.update_self(x[10:20])
        expect = np.arange(100.0)
        expect[10:20] *= 2
        np.testing.assert_array_equal(x, expect)
        # update_device on a slice likewise moves only the slice
        x[:] = -1.0
        acc.update_device(x[0:5])
        back = np.empty_like(x)
        acc.memcpy_from_device(back, d)
        np.testing.assert_array_equal(back[:5], -1.0)
        np.testing.assert_array_equal(back[5:10], 2 * np.arange(5.0, 10.0))
    finally:
        acc.unmap_data(x)
        acc.free(d)


# --- 2-D arrays -----------------------------------------------------------------


@pytest.mark.parametrize("order", ["C", "F"])
def test_2d_arrays_and_their_contiguous_parts(order):
    a = np.zeros((6, 5), order=order)
    acc.copyin(a)
    assert acc.is_present(a) and acc.ref_counts(a) == (0, 1)
    part = a[2] if order == "C" else a[:, 2]  # a row of C order, a column of F order
    assert part.flags.contiguous and acc.is_present(part)
    assert acc.deviceptr(part) == acc.deviceptr(a) + (addr(part) - addr(a))
    assert acc.deviceptr(part) == addr(part) or not SHARED
    strided = a[:, 2] if order == "C" else a[2]
    with pytest.raises(ValueError, match="contiguous"):
        acc.is_present(strided)
    with pytest.raises(ValueError, match="np.ascontiguousarray"):
        acc.update_self(strided)
    acc.copyout(a)
    assert not acc.is_present(a)


@pytest.mark.parametrize("order", ["C", "F"])
def test_2d_kernel_matches_numpy(lib, rng, order):
    n, m = 40, 30
    a = np.asarray(rng.random((n, m), dtype=np.float32), order=order)
    b = np.zeros_like(a)
    # The kernel indexes row-major; an F-order (n, m) array is a C-order (m, n) one.
    ca, cb = (a, b) if order == "C" else (a.T, b.T)
    rows, cols = ca.shape
    with acc.data(copyin=[a], copyout=[b]):
        assert acc.is_present(ca) and acc.is_present(cb)
        lib.smooth(rows, cols, ca, cb)
    ref = ca.copy()
    ref[:, 1:] += ca[:, :-1]
    ref[:, :-1] += ca[:, 1:]
    np.testing.assert_allclose(cb, ref, rtol=1e-6)


# --- device addresses, map_data, malloc, memcpy -----------------------------------------


def test_deviceptr_and_hostptr():
    x = np.arange(10.0)
    assert acc.deviceptr(x) == 0
    acc.copyin(x)
    dp = acc.deviceptr(x)
    assert (dp == addr(x)) == SHARED  # shared memory: the device copy is the host array
    assert acc.hostptr(dp + 16) == addr(x) + 16
    acc.delete(x)
    assert acc.hostptr(dp) == 0 and acc.hostptr(0) == 0


def test_map_data_gives_a_separate_device_copy():
    x = np.arange(32, dtype=np.int64)
    d = acc.malloc(x.nbytes)
    assert d != 0
    acc.map_data(x, d)
    assert acc.is_present(x) and acc.ref_counts(x) == (0, 1)
    assert acc.deviceptr(x) == d and acc.deviceptr(x[4:]) == d + 32
    assert acc.hostptr(d + 8) == addr(x) + 8
    assert any(e["mapped"] and e["device"] == d for e in acc.present_table())
    with pytest.raises(acc.AccError, match="already present") as ei:
        acc.map_data(x, d)
    assert ei.value.code_name == "acc_error_present"
    acc.unmap_data(x)
    assert not acc.is_present(x)
    with pytest.raises(acc.NotPresentError):
        acc.unmap_data(x)
    acc.free(d)


def test_unmap_data_refuses_non_mapped_and_held_data():
    x = np.ones(8)
    acc.copyin(x)
    with pytest.raises(acc.AccError) as ei:
        acc.unmap_data(x)
    assert ei.value.code_name == "acc_error_invalid_argument"
    acc.delete(x)
    d = acc.malloc(x.nbytes)
    acc.map_data(x, d)
    with acc.data(present=[x]):
        with pytest.raises(acc.AccError, match="in use by a data region"):
            acc.unmap_data(x)
    acc.unmap_data(x)
    acc.free(d)


def test_malloc_free_and_memcpy_roundtrip(rng):
    src = rng.random(64)
    d1 = acc.malloc(src.nbytes)
    d2 = acc.malloc(src.nbytes)
    try:
        acc.memcpy_to_device(d1, src)
        acc.memcpy_device(d2, d1, src.nbytes)
        out = np.zeros_like(src)
        acc.memcpy_from_device(out, d2)
        np.testing.assert_array_equal(out, src)
        # partial copies with an explicit byte count, at an offset
        part = np.zeros(4)
        acc.memcpy_from_device(part, d2 + 8 * 10, 32)
        np.testing.assert_array_equal(part, src[10:14])
        acc.memcpy_to_device(d2, np.full(2, 7.0), 16)
        acc.memcpy_from_device(out, d2)
        np.testing.assert_array_equal(out[:2], 7.0)
        np.testing.assert_array_equal(out[2:], src[2:])
    finally:
        acc.free(d1)
        acc.free(d2)
    assert acc.malloc(0) == 0
    acc.free(0)


def test_memory_errors_are_clear():
    d = acc.malloc(64)
    with pytest.raises(ValueError, match="only 64"):
        acc.memcpy_to_device(d, np.zeros(8), 65)
    with pytest.raises(ValueError, match="not device memory"):
        acc.memcpy_to_device(d + 32, np.zeros(8))  # runs past the block
    with pytest.raises(ValueError, match="not device memory"):
        acc.memcpy_from_device(np.zeros(2), 0x1000)
    with pytest.raises(ValueError, match="not device memory"):
        acc.map_data(np.zeros(16), d)  # 128 bytes onto a 64-byte block
    acc.free(d)
    with pytest.raises(ValueError, match="not returned by acc.malloc"):
        acc.free(d)  # double free is refused, not a crash
    ro = np.zeros(8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        acc.memcpy_from_device(ro, 0)


# --- async ----------------------------------------------------------------------------------


def test_async_variants_and_waits(lib, rng):
    x = rng.random(5000)
    ref = x * 6.0
    acc.copyin(x, async_=1)
    acc.wait(1)
    assert acc.async_test(1) and acc.async_test()
    lib.scale_async(x.size, 2.0, x)  # queue 3
    acc.wait(3, async_=1)  # queue 1 waits for queue 3, the host does not
    acc.update_self(x, async_=1)  # the host gets 2x, then the device gets it back
    acc.update_device(x, async_=1)
    acc.wait(1)
    lib.scale_async(x.size, 3.0, x)
    acc.update_self(x, async_=3)
    assert acc.wait_any([3, 5]) in (0, 1)
    acc.wait()
    assert acc.async_test(3)
    np.testing.assert_allclose(x, ref)
    acc.copyout(x, async_=2)
    acc.wait(2)
    assert not acc.is_present(x)
    acc.create(x, async_=-1)  # acc_async_noval
    acc.delete(x, async_=-1, finalize=True)
    acc.wait(-1)
    assert not acc.is_present(x)


def test_async_memcpy():
    src = np.arange(256.0)
    d = acc.malloc(src.nbytes)
    out = np.zeros_like(src)
    acc.memcpy_to_device(d, src, async_=4)
    acc.memcpy_from_device(out, d, async_=4)
    acc.wait(4)
    np.testing.assert_array_equal(out, src)
    acc.free(d)


def test_invalid_async_value():
    x = np.zeros(4)
    with pytest.raises(acc.InvalidAsyncError) as ei:
        acc.copyin(x, async_=-7)
    assert ei.value.code_name == "acc_error_invalid_async"
    assert not acc.is_present(x)
    with pytest.raises(acc.InvalidAsyncError):
        acc.wait(-9)


def test_default_async():
    old = acc.get_default_async()
    acc.set_default_async(6)
    try:
        assert acc.get_default_async() == 6
    finally:
        acc.set_default_async(old)
    with pytest.raises(acc.InvalidAsyncError):
        acc.set_default_async(-12)


# --- devices ------------------------------------------------------------------------------------


def test_device_management():
    assert acc.get_num_devices() >= 1
    gpus = acc.get_num_devices("nvidia")
    assert acc.get_num_devices("multicore") == 1
    old = acc.get_device_type()
    try:
        acc.set_device_type("host")
        assert acc.get_device_type() == "host"
        # each device has its own present table
        x = np.zeros(4)
        acc.copyin(x)
        acc.set_device_type("multicore")
        assert not acc.is_present(x)
        acc.set_device_type("acc_device_host")
        assert acc.is_present(x)
        acc.delete(x)
        if gpus == 0:
            with pytest.raises((acc.DeviceTypeUnavailableError, ValueError), match="nvidia"):
                acc.set_device_type("nvidia")
        else:
            acc.set_device_type("nvidia")
            assert not acc.is_present(x)
        with pytest.raises(ValueError, match="quantum"):
            acc.set_device_type("quantum")
    finally:
        acc.set_device_type(old)
    acc.set_device_num(0)
    assert acc.get_device_num() == 0 and acc.get_device_num("nvidia") == (0 if gpus else -1)
    with pytest.raises(acc.DeviceTypeUnavailableError):
        acc.set_device_num(acc.get_num_devices() + 2)
    assert acc.get_device_type() == old


def test_free_memory_moves_with_device_allocations():
    # Shared-memory devices keep their own books: free memory is the total less
    # what the device holds (present copies, acc_malloc blocks).
    x = np.arange(1 << 16, dtype=np.float64)
    f0 = acc.get_property("free_memory")
    acc.copyin(x)
    assert acc.get_property("free_memory") == f0 - x.nbytes
    p = acc.malloc(4096)
    assert acc.get_property("free_memory") == f0 - x.nbytes - 4096
    acc.free(p)
    acc.delete(x)
    assert acc.get_property("free_memory") == f0
    assert acc.get_property("memory") >= f0


def test_device_properties():
    assert acc.get_property("memory") > 0
    assert 0 < acc.get_property("free_memory") <= acc.get_property("memory")
    assert acc.get_property("acc_property_shared_memory_support") == (1 if SHARED else 0)
    assert acc.get_property("vendor", device_type="multicore") == "accjit"
    assert "Cranelift" in acc.get_property("driver", device_type="multicore")
    assert isinstance(acc.get_property("name", device_num=0, device_type="multicore"), str)
    if acc.get_num_devices("nvidia") == 0:
        assert acc.get_property("memory", device_type="nvidia") == 0
    else:
        assert acc.get_property("memory", device_type="nvidia") > 0
        assert acc.get_property("vendor", device_type="nvidia") == "NVIDIA"
        assert acc.get_property("shared_memory_support", device_type="nvidia") == 0
    with pytest.raises(ValueError, match="unknown device property"):
        acc.get_property("colour")


# --- acc.data regions ------------------------------------------------------------------------


def test_data_region_every_clause(lib, rng):
    a, b, out, tmp = rng.random(100), rng.random(100), np.zeros(100), np.zeros(100)
    absent = np.zeros(3)
    ra, rb = a.copy(), b.copy()
    acc.copyin(b)
    with acc.data(copy=[a], present=[b], copyout=[out], create=[tmp], no_create=[absent]) as region:
        assert "copy=ndarray" in repr(region)
        for arr in (a, b, out, tmp):
            assert acc.is_present(arr)
        assert acc.ref_counts(a) == (1, 0) and acc.ref_counts(b) == (1, 1)
        assert not acc.is_present(absent)  # no_create of absent data does nothing
        lib.axpy(100, 2.0, a, b)
        lib.scale(100, 0.5, b)
        acc.update_self(b)
        out[:] = b
    assert acc.ref_counts(b) == (0, 1)
    for arr in (a, out, tmp):
        assert not acc.is_present(arr)
    acc.delete(b)
    np.testing.assert_allclose(b, (2 * ra + rb) * 0.5)
    np.testing.assert_allclose(a, ra)


def test_nested_regions_and_dynamic_references(lib, rng):
    x = rng.random(500)
    ref = x * 8
    with acc.data(copy=[x]):
        assert acc.ref_counts(x) == (1, 0)
        with acc.data(present=[x]):
            assert acc.ref_counts(x) == (2, 0)
            acc.copyin(x)
            assert acc.ref_counts(x) == (2, 1)
            lib.scale(x.size, 2.0, x)
        assert acc.ref_counts(x) == (1, 1)
        acc.delete(x, finalize=True)  # drops the dynamic reference only
        assert acc.ref_counts(x) == (1, 0) and acc.is_present(x)
        acc.copyout(x)  # dynamic count is 0 already: no action
        assert acc.is_present(x)
        lib.scale(x.size, 4.0, x)
    assert not acc.is_present(x)
    np.testing.assert_allclose(x, ref)


def test_dynamic_data_outlives_a_region(lib):
    x = np.ones(50)
    acc.copyin(x)
    with acc.data(copyin=[x]):
        lib.scale(x.size, 3.0, x)
    assert acc.ref_counts(x) == (0, 1)  # still present after the region
    lib.scale(x.size, 3.0, x)
    acc.copyout(x)
    np.testing.assert_allclose(x, 9.0)


def test_region_names_and_errors():
    a = np.zeros(10)
    with pytest.raises(acc.NotPresentError) as ei:
        with acc.data(present={"a": a}):
            pass
    e = ei.value
    assert e.var == "present(a)"
    assert e.host_range == (addr(a), addr(a) + a.nbytes)
    assert e.loc and e.loc.startswith("test_data_api.py:")
    # An error on entry releases what was already entered.
    b = np.zeros(10)
    with pytest.raises(acc.NotPresentError):
        with acc.data(copyin=[b], present=[a]):
            pass
    assert not acc.is_present(b)
    with pytest.raises(TypeError, match="list of arrays"):
        acc.data(copyin=a)
    with pytest.raises(ValueError, match="contiguous"):
        with acc.data(copy=[np.zeros((4, 4))[:, 0]]):
            pass


def test_region_exits_on_exception():
    a = np.zeros(10)
    with pytest.raises(KeyError):
        with acc.data(copy=[a], create=[np.zeros(2)]):
            raise KeyError("boom")
    assert not acc.is_present(a)


def test_region_object_is_not_reentrant():
    region = acc.data(copyin=[np.zeros(2)])
    with region:
        with pytest.raises(RuntimeError, match="already active"):
            region.__enter__()


# --- errors --------------------------------------------------------------------------------------


def test_not_present_error_attributes():
    x = np.zeros(1000)
    with pytest.raises(acc.NotPresentError) as ei:
        acc.update_self(x)
    e = ei.value
    assert isinstance(e, acc.AccError)
    assert e.code == 10 and e.code_name == "acc_error_not_present"
    assert e.var == f"float64[1000] at {addr(x):#x}"
    assert e.host_range == (addr(x), addr(x) + 8000)
    assert e.loc.startswith("test_data_api.py:")
    assert str(e).startswith("acc_update_self: data is not present")
    with pytest.raises(acc.NotPresentError, match="acc_copyout"):
        acc.copyout(x, name="x")
    with pytest.raises(acc.NotPresentError) as ei:
        acc.delete(x, name="x")
    assert ei.value.var == "x"


def test_partly_present_error_attributes():
    x = np.zeros(100)
    acc.copyin(x[10:20])
    try:
        with pytest.raises(acc.PartlyPresentError) as ei:
            acc.copyin(x)
        e = ei.value
        assert e.code_name == "acc_error_partly_present"
        assert e.host_range == (addr(x), addr(x) + 800)
        assert e.var.startswith("float64[100] at ")
        with pytest.raises(acc.PartlyPresentError):
            acc.update_self(x[15:25])
        with pytest.raises(acc.PartlyPresentError):
            with acc.data(present=[x[5:15]]):
                pass
        assert acc.ref_counts(x[10:20]) == (0, 1)  # the failed calls changed nothing
    finally:
        acc.delete(x[10:20])


def test_two_d_partly_present():
    a = np.zeros((10, 10))
    acc.copyin(a[2:4])
    try:
        assert acc.is_present(a[2]) and acc.is_present(a[3, 5:])
        with pytest.raises(acc.PartlyPresentError):
            acc.create(a[3:5])
    finally:
        acc.delete(a[2:4])


def test_wrong_types_and_non_contiguous():
    with pytest.raises(TypeError, match="NumPy array"):
        acc.copyin([1.0, 2.0])
    with pytest.raises(TypeError, match="NumPy array"):
        acc.is_present(3)
    with pytest.raises(TypeError, match="Python objects"):
        acc.copyin(np.array([object(), 1]))
    with pytest.raises(ValueError, match="contiguous"):
        acc.copyin(np.arange(10.0)[::2])
    with pytest.raises(TypeError):
        acc.copyin(np.zeros(3), async_="1")
    ro = np.zeros(4)
    ro.flags.writeable = False
    acc.copyin(ro)  # reading a read-only array is fine
    with pytest.raises(ValueError, match="read-only"):
        acc.update_self(ro)
    acc.delete(ro)


def test_empty_arrays_are_no_ops():
    e = np.zeros(0)
    acc.copyin(e)
    acc.update_self(e)
    acc.copyout(e)
    assert acc.deviceptr(e) == 0


# --- kernels between data operations, against NumPy --------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_pipeline_matches_numpy(lib, seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(100, 5000))
    x, y = rng.random(n), rng.random(n)
    a, s = float(rng.normal()), float(rng.normal())
    ref_y = (a * x + y) * s
    acc.copyin(x)
    acc.copyin(y)
    lib.axpy(n, a, x, y)
    lib.scale(n, s, y)
    total = lib.total(n, y)
    acc.update_self(y[: n // 2])  # a slice first, then the rest
    acc.update_self(y[n // 2:])
    acc.delete(x)
    acc.copyout(y)
    np.testing.assert_allclose(y, ref_y, rtol=1e-12)
    assert total == pytest.approx(ref_y.sum(), rel=1e-9)


def test_kernel_on_a_slice_of_present_data(lib, rng):
    x = rng.random(1000)
    ref = x.copy()
    ref[200:300] *= 5
    with acc.data(copy=[x]):
        lib.scale(100, 5.0, x[200:300])  # present(a[0:100]) finds the slice inside x
    np.testing.assert_allclose(x, ref)


def test_separate_device_copy_pipeline(lib, rng):
    """map_data onto malloc memory behaves like a discrete device: kernels change
    only the device copy until an update brings it back."""
    x = rng.random(256)
    host = x.copy()
    d = acc.malloc(x.nbytes)
    acc.map_data(x, d)
    try:
        acc.update_device(x)
        lib.scale(x.size, 3.0, x)
        assert lib.total(x.size, x) == pytest.approx(3 * host.sum())
        np.testing.assert_array_equal(x, host)  # host untouched
        acc.update_self(x)
        np.testing.assert_allclose(x, 3 * host)
    finally:
        acc.unmap_data(x)
        acc.free(d)


# --- attach / detach ----------------------------------------------------------------------------


def test_attach_counts():
    rows = [np.arange(4.0) + 10 * i for i in range(3)]
    ptrs = np.array([r.ctypes.data for r in rows], dtype=np.uint64)
    acc.copyin(ptrs)
    for r in rows:
        acc.copyin(r)
    acc.attach(ptrs[1:2])
    acc.attach(ptrs[1:2])
    assert acc.attach_count(ptrs[1:2]) == 2 and acc.attach_count(ptrs[0:1]) == 0
    acc.detach(ptrs[1:2])
    assert acc.attach_count(ptrs[1:2]) == 1
    acc.detach(ptrs[1:2], finalize=True)
    assert acc.attach_count(ptrs[1:2]) == 0
    acc.attach(ptrs[2:3])
    acc.delete(ptrs)  # removing the pointer's device copy drops its attachment
    assert acc.attach_count(ptrs[2:3]) == 0
    for r in rows:
        acc.delete(r)
    with pytest.raises(TypeError, match="array of pointers"):
        acc.attach(np.zeros(2, dtype=np.float32))


def test_attached_pointers_on_a_separate_device_copy():
    """With every array mapped to its own device memory, attach writes device
    addresses into the device copy of the pointer array, and a kernel that
    walks `double **` works on the device copies only."""
    lib = acc.c(r"""
    void bump(int n, int m, double **p) {
        #pragma acc parallel loop present(p[0:n])
        for (int i = 0; i < n; i++)
            for (int j = 0; j < m; j++) p[i][j] += 1.0;
    }
    """)
    rows = [np.arange(4.0) + 10 * i for i in range(3)]
    ptrs = np.array([r.ctypes.data for r in rows], dtype=np.uint64)
    dp = acc.malloc(ptrs.nbytes)
    acc.map_data(ptrs, dp)
    acc.update_device(ptrs)
    ds = []
    for r in rows:
        ds.append(acc.malloc(r.nbytes))
        acc.map_data(r, ds[-1])
        acc.update_device(r)
    try:
        for i in range(3):
            acc.attach(ptrs[i:i + 1])
        dev = np.zeros(3, dtype=np.uint64)
        acc.memcpy_from_device(dev, dp)
        assert dev.tolist() == ds  # device pointers in the device copy
        assert ptrs.tolist() == [r.ctypes.data for r in rows]  # host pointers untouched
        lib.bump(3, 4, ptrs)
        assert rows[0].tolist() == [0.0, 1.0, 2.0, 3.0]  # host data untouched
        for r in rows:
            acc.update_self(r)
        np.testing.assert_array_equal(np.stack(rows), np.arange(4.0) + 10 * np.arange(3)[:, None] + 1)
        for i in range(3):
            acc.detach(ptrs[i:i + 1])
        acc.memcpy_from_device(dev, dp)
        assert dev.tolist() == ptrs.tolist()  # detach restored the host values
    finally:
        for r, d in zip(rows, ds):
            acc.unmap_data(r)
            acc.free(d)
        acc.unmap_data(ptrs)
        acc.free(dp)


# --- the documentation's examples --------------------------------------------------------------


def test_docs_examples_run(capsys):
    """Every ```python block of docs/data-environment.md runs, in order, in one namespace."""
    import re
    from pathlib import Path

    doc = Path(__file__).resolve().parent.parent / "docs" / "data-environment.md"
    text = doc.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 10
    env = {"__name__": "__doc__"}
    for i, src in enumerate(blocks):
        exec(compile(src, "data-environment.md", "exec"), env)
    out = capsys.readouterr().out
    assert "np.ascontiguousarray" in out and "acc_error_partly_present" in out
    assert "present(a) data-environment.md:" in out
    assert "profile:" in out
