"""CUDA arrays of other libraries in, device copies out (docs/nvidia.md, Interop).

The GPU tests run only where an nvidia device is present; the others check
the errors a machine without one gives.
"""

import numpy as np
import pytest

import accjit as acc

SRC = r"""
void axpy(int n, float a, const float *x, float *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"""


class FakeCuda:
    """Looks like a CUDA array to the protocol (never dereferenced here)."""

    def __init__(self, n, typestr="<f4"):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": typestr, "data": (0x7F0000000000, False), "version": 3, "strides": None}


def test_cuda_array_on_a_cpu_device_is_a_clear_error():
    before = acc.get_device_type()
    acc.set_device_type("multicore")
    try:
        lib = acc.c(SRC, name="interop.c")
        y = np.ones(8, dtype=np.float32)
        with pytest.raises(ValueError, match="current device is not nvidia"):
            lib.axpy(8, 2.0, FakeCuda(8), y)
    finally:
        acc.set_device_type(before)


def test_cuda_array_of_the_wrong_dtype_is_a_type_error():
    lib = acc.c(SRC, device_type="multicore", name="interop.c")
    y = np.ones(8, dtype=np.float32)
    with pytest.raises(TypeError, match="CUDA array of f8"):
        lib.axpy(8, 2.0, FakeCuda(8, "<f8"), y)


def test_non_contiguous_cuda_array_is_refused():
    lib = acc.c(SRC, device_type="multicore", name="interop.c")
    a = FakeCuda(8)
    a.__cuda_array_interface__ = dict(a.__cuda_array_interface__, shape=(4, 4), strides=(4, 16))
    with pytest.raises(ValueError, match="non-contiguous CUDA array"):
        lib.axpy(8, 2.0, a, np.ones(8, dtype=np.float32))


def test_device_view_needs_the_nvidia_device():
    if acc.get_device_type() == "nvidia":
        pytest.skip("nvidia is current")
    x = np.ones(4)
    with pytest.raises(ValueError, match="nvidia"):
        acc.device_view(x)


gpu = pytest.mark.skipif(acc.get_num_devices("nvidia") == 0, reason="no nvidia device")


@gpu
def test_cupy_arrays_are_used_in_place():
    cp = pytest.importorskip("cupy")
    acc.set_device_type("nvidia")
    try:
        lib = acc.c(SRC, name="interop.c")
        rng = np.random.default_rng()
        x = rng.random(100_000, dtype=np.float32)
        y = rng.random(100_000, dtype=np.float32)
        cx, cy = cp.asarray(x), cp.asarray(y)
        lib.axpy(x.size, 3.0, cx, cy)
        assert np.allclose(cp.asnumpy(cy), 3.0 * x + y, rtol=1e-6)
        assert not acc.is_present(x)
        # mixing: a CuPy x with a NumPy y (copied in and out by the clause)
        y2 = y.copy()
        lib.axpy(x.size, 2.0, cx, y2)
        assert np.allclose(y2, 2.0 * x + y, rtol=1e-6)
    finally:
        acc.set_device_type("multicore")


@gpu
def test_torch_tensors_are_used_in_place():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    acc.set_device_type("nvidia")
    try:
        lib = acc.c(SRC, name="interop.c")
        x = torch.rand(5000, device="cuda")
        y = torch.rand(5000, device="cuda")
        ref = 1.5 * x + y
        lib.axpy(5000, 1.5, x, y)
        assert torch.allclose(y, ref)
    finally:
        acc.set_device_type("multicore")


@gpu
def test_device_view_is_zero_copy_for_cupy_and_torch():
    cp = pytest.importorskip("cupy")
    acc.set_device_type("nvidia")
    try:
        x = np.random.default_rng().random((64, 32))
        acc.copyin(x)
        v = acc.device_view(x)
        assert v.ptr == acc.deviceptr(x)
        c = cp.asarray(v)
        assert c.data.ptr == v.ptr and c.shape == x.shape
        assert np.array_equal(cp.asnumpy(c), x)
        c *= 2  # writes the device copy in place
        acc.update_self(x)
        assert np.array_equal(x, cp.asnumpy(c))
        d = cp.from_dlpack(v)
        assert d.data.ptr == v.ptr
        try:
            import torch

            t = torch.from_dlpack(v)
            assert t.data_ptr() == v.ptr and tuple(t.shape) == x.shape
        except ImportError:
            pass
        acc.delete(x)
    finally:
        acc.set_device_type("multicore")
