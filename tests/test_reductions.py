"""Reductions on arrays through the Python API: a histogram section reduced by
every gang, an element-wise max over a 2-D section, both on NumPy arrays and
checked against NumPy (multicore and host)."""

import numpy as np
import pytest

import accjit as acc

SRC = r"""
void histogram(int n, const int *v, int nb, long *h) {
    #pragma acc parallel loop num_gangs(8) copyin(v[0:n]) copy(h[0:nb]) reduction(+:h[0:nb])
    for (int i = 0; i < n; i++) h[v[i] % nb] += 1;
}

void column_max(int rows, int cols, const double *a, double *m) {
    #pragma acc parallel loop gang copyin(a[0:rows*cols]) copy(m[0:cols]) reduction(max:m[0:cols])
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            if (a[r * cols + c] > m[c]) m[c] = a[r * cols + c];
    }
}
"""


@pytest.fixture
def on_device(device):
    # The calls run on the current device: make it the one compiled for
    # (the suite also runs with ACC_DEVICE_TYPE=nvidia).
    prev = acc.get_device_type()
    acc.set_device_type(device)
    yield device
    acc.set_device_type(prev)


@pytest.mark.parametrize("device", ["multicore", "host"])
def test_section_reductions_match_numpy(rng, device, on_device):
    lib = acc.c(SRC, device_type=device)
    n, nb = 100_000, 37
    v = rng.integers(0, 1 << 30, n, dtype=np.int32)
    h = np.arange(nb, dtype=np.int64)
    lib.histogram(n, v, nb, h)
    np.testing.assert_array_equal(h, np.arange(nb) + np.bincount(v % nb, minlength=nb))
    rows, cols = 500, 23
    a = rng.standard_normal((rows, cols))
    m = np.full(cols, -np.inf)
    m[3] = 1e9
    lib.column_max(rows, cols, a, m)
    want = a.max(axis=0)
    want[3] = 1e9
    np.testing.assert_array_equal(m, want)
