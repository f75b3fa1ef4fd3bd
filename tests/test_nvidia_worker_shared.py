"""Arrays a worker's vector lanes share and write (declared in a worker loop,
filled by a vector loop, read by the next) on the nvidia device
(docs/nvidia.md, "Private storage"): one copy per worker in shared memory.
Results against NumPy on fresh random inputs; worker segments within one
warp (vector_length 32) and of two warps (64, named barriers). Skipped
without an nvidia device; the same code runs on multicore as the reference
for the C semantics.
"""

import numpy as np
import pytest

import accjit as acc

SRC = r'''
/* out[row] = reverse(2 * in[row]) with out[row][M-1] + 1: the worker's array
   written by one vector loop and by its single lane, read by the next loop. */
void reverse_rows(int rows, int m, const float *in, float *out) {
    #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(in[0:rows*m]) copyout(out[0:rows*m])
    for (int i = 0; i < rows; i += 4) {
        #pragma acc loop worker
        for (int w = 0; w < 4; w++) {
            float tmp[32];
            int row = i + w;
            if (row < rows) {
                #pragma acc loop vector
                for (int k = 0; k < m; k++) tmp[k] = in[row * m + k] * 2.0f;
                tmp[0] += 1.0f;
                #pragma acc loop vector
                for (int k = 0; k < m; k++) out[row * m + k] = tmp[m - 1 - k];
            }
        }
    }
}

/* A 3-point stencil along each row through the worker's copy, 64 lanes. */
void smooth_rows(int rows, const double *in, double *out) {
    #pragma acc parallel loop gang num_workers(2) vector_length(64) copyin(in[0:rows*64]) copyout(out[0:rows*64])
    for (int i = 0; i < rows; i += 2) {
        #pragma acc loop worker
        for (int w = 0; w < 2; w++) {
            double row_copy[64];
            int r = i + w;
            #pragma acc loop vector
            for (int k = 0; k < 64; k++) row_copy[k] = in[r * 64 + k];
            #pragma acc loop vector
            for (int k = 0; k < 64; k++) {
                double l = k > 0 ? row_copy[k - 1] : 0.0, c = row_copy[k], rr = k < 63 ? row_copy[k + 1] : 0.0;
                out[r * 64 + k] = (l + c + rr) / 3.0;
            }
        }
    }
}
'''


@pytest.mark.parametrize("device", ["nvidia", "multicore"])
def test_worker_shared_arrays(device):
    if acc.get_num_devices(device) == 0:
        pytest.skip(f"no {device} device")
    lib = acc.c(SRC, name="worker_shared.c", device_type=device)
    old = acc.get_device_type()
    acc.set_device_type(device)
    try:
        rng = np.random.default_rng()
        rows, m = 4 * int(rng.integers(20, 60)), 32
        x = rng.random(rows * m, dtype=np.float32)
        out = np.zeros_like(x)
        lib.reverse_rows(rows, m, x, out)
        want = (np.float32(2) * x.reshape(rows, m))[:, ::-1].copy()
        want[:, m - 1] += np.float32(1)
        assert np.array_equal(out.reshape(rows, m), want)

        rows = 2 * int(rng.integers(20, 60))
        y = rng.random(rows * 64)
        o = np.zeros_like(y)
        lib.smooth_rows(rows, y, o)
        p = np.pad(y.reshape(rows, 64), ((0, 0), (1, 1)))
        ref = (p[:, :-2] + p[:, 1:-1] + p[:, 2:]) / 3.0
        assert np.allclose(o.reshape(rows, 64), ref, rtol=1e-15, atol=0)
    finally:
        acc.set_device_type(old)
