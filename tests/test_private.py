"""private/firstprivate subarrays from Python: NumPy arrays passed as
pointers get per-gang (or per-executor) copies; the caller's arrays keep
their values, and many calls release their private storage."""

import numpy as np

import accjit as acc

ROWS = r"""
/* out[i] = sum over k of the running maximum of row i (scratch: a private copy of c). */
void running_max(int n, int m, const double *a, double *c, double *out) {
    #pragma acc parallel loop gang private(c[0:m]) copyin(a[0:n*m]) copyout(out[0:n])
    for (int i = 0; i < n; i++) {
        c[0] = a[i * m];
        for (int k = 1; k < m; k++) c[k] = c[k - 1] > a[i * m + k] ? c[k - 1] : a[i * m + k];
        double s = 0;
        for (int k = 0; k < m; k++) s += c[k];
        out[i] = s;
    }
}

/* Every gang scales its own copy of w[lo:len] once, then uses it. */
void scaled(int n, int lo, int len, float *w, float *out) {
    #pragma acc parallel num_gangs(16) firstprivate(w[lo:len]) copyout(out[0:n])
    {
        for (int k = lo; k < lo + len; k++) w[k] *= 2.0f;
        #pragma acc loop gang
        for (int i = 0; i < n; i++) out[i] = w[lo + i % len] + i;
    }
}
"""


def test_private_section_of_a_numpy_array(rng):
    lib = acc.c(ROWS)
    n, m = 3000, 17
    a = rng.random(n * m)
    c = np.full(m, -5.0)
    out = np.zeros(n)
    lib.running_max(n, m, a, c, out)
    want = np.maximum.accumulate(a.reshape(n, m), axis=1).sum(axis=1)
    np.testing.assert_allclose(out, want, rtol=1e-12)
    assert np.all(c == -5.0), "the caller's scratch array is not the private copy"


def test_firstprivate_offset_section_many_calls(rng):
    lib = acc.c(ROWS)
    n, lo, length = 1000, 3, 5
    w = rng.random(12, dtype=np.float32)
    w0 = w.copy()
    out = np.zeros(n, dtype=np.float32)
    for _ in range(200):
        lib.scaled(n, lo, length, w, out)
    idx = lo + np.arange(n) % length
    np.testing.assert_allclose(out, 2 * w0[idx] + np.arange(n, dtype=np.float32), rtol=1e-6)
    assert np.array_equal(w, w0), "each gang doubled its own copy, never the caller's array"
