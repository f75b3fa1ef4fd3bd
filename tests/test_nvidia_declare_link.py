"""`declare link` globals on the nvidia device (spec 2.13.4; docs/nvidia.md):
the routines that read and write the global (through its module symbol) and
the kernels that get it through a data clause see the same device copy, in
every data region and for sections too. Before, the routines saw the
symbol's bytes from when the module loaded. Skipped without an nvidia
device; the same program passes on the CPU devices.
"""

import numpy as np
import pytest

import accjit as acc

SRC = r'''
#define N 4096
double big[N];
#pragma acc declare link(big)

#pragma acc routine seq
static double get(int i) { return big[i]; }
#pragma acc routine seq
static void put(int i, double v) { big[i] = v; }

/* Returns the number of wrong values; `seed` varies the data per call. */
int check(double seed) {
    int bad = 0;
    double out[128];
    for (int i = 0; i < N; i++) big[i] = seed + i * 0.5;
    #pragma acc data copyin(big[0:N])
    {
        #pragma acc parallel loop copyout(out)
        for (int i = 0; i < 128; i++) out[i] = get(i * 32) + big[i];
    }
    for (int i = 0; i < 128; i++) bad += out[i] != (seed + i * 16.0) + (seed + i * 0.5);
    /* New host values, a second region: the routine must see them. */
    for (int i = 0; i < N; i++) big[i] = -seed - i;
    #pragma acc data copy(big[0:N])
    {
        #pragma acc parallel loop
        for (int i = 0; i < N; i++) put(i, get(i) * 2.0 + big[i]);
    }
    for (int i = 0; i < N; i++) bad += big[i] != 3.0 * (-seed - i);
    /* A section only. */
    for (int i = 0; i < N; i++) big[i] = seed * 2 + i;
    #pragma acc enter data copyin(big[1000:64])
    #pragma acc parallel loop present(big[1000:64]) copyout(out[0:64])
    for (int i = 0; i < 64; i++) out[i] = get(1000 + i) - big[1000 + i] + 1.0;
    #pragma acc exit data delete(big[1000:64])
    for (int i = 0; i < 64; i++) bad += out[i] != 1.0;
    return bad;
}
'''


@pytest.mark.parametrize("device", ["nvidia", "multicore"])
def test_routines_and_kernels_share_a_link_global(device):
    if acc.get_num_devices(device) == 0:
        pytest.skip(f"no {device} device")
    old = acc.get_device_type()
    acc.set_device_type(device)
    try:
        lib = acc.c(SRC, name="link.c", device_type=device)
        rng = np.random.default_rng()
        for _ in range(3):
            assert lib.check(float(rng.integers(1, 1000))) == 0
    finally:
        acc.set_device_type(old)
