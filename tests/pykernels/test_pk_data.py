"""Data: arrays made present from Python (acc.copyin, acc.data) and found by kernels
with present= / default="present"; the not-present error when they are not; data
constructs, enter/exit data, update self/device (whole and sections) and async/wait in
@acc.jit bodies (mirrors core/099-104, 122-126, 129, 166 and data/001-073).

On a discrete-memory device (nvidia, or the host device with ACCJIT_DISCRETE_HOST=1,
which test_discrete_host_run drives in a subprocess) the host and device copies differ,
and the tests marked `discrete_only` observe that: copyin does not copy back, create
leaves the host untouched, a present array is not refreshed from the host."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pkutil import acc, assert_same, rand

N = 4000


def shared_memory():
    return acc.get_property("shared_memory_support") != 0


def require_discrete():
    """Called first in a test (after the device fixture chose the device)."""
    if shared_memory():
        pytest.skip("observes separate device memory")


@acc.parallel(present=["x"])
def double_present(x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * 2.0


@acc.parallel(default="present")
def double_default_present(x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * 2.0


@acc.parallel
def double_implicit(x):
    for i in acc.loop(x.shape[0]):
        x[i] = x[i] * 2.0


@pytest.mark.parametrize("fn", [double_present, double_default_present, double_implicit], ids=lambda f: f.__name__)
def test_present_after_copyin_from_python(fn, rng):
    x = rand(rng, N, "float64")
    want = 4.0 * x
    acc.copyin(x)
    try:
        assert acc.is_present(x)
        fn(x)
        fn(x)
    finally:
        acc.copyout(x)
    assert not acc.is_present(x)
    assert_same(x, want)


@pytest.mark.parametrize("fn", [double_present, double_default_present], ids=lambda f: f.__name__)
def test_present_without_data_is_an_error(fn, rng):
    x = rand(rng, N, "float64")
    before = x.copy()
    with pytest.raises(acc.NotPresentError):
        fn(x)
    np.testing.assert_array_equal(x, before)
    assert acc.present_table() == []
    double_implicit(x)  # the process and runtime go on
    assert_same(x, 2.0 * before)


@pytest.mark.parametrize("fn", [double_present, double_default_present], ids=lambda f: f.__name__)
def test_present_inside_python_data_region(fn, rng):
    x = rand(rng, N, "float64")
    want = 2.0 * x
    with acc.data(copy=[x]):
        fn(x)
        assert acc.is_present(x)
    assert not acc.is_present(x)
    assert_same(x, want)


@acc.parallel(present=["x"])
def double_present_section(x, n):
    for i in acc.loop(n):
        x[i] = x[i] * 2.0


def test_present_of_a_python_slice(rng):
    x = rand(rng, N, "float64")
    want = x.copy()
    want[:100] *= 2.0
    head = x[:100]
    acc.copyin(head)
    try:
        double_present_section(head, 100)
    finally:
        acc.copyout(head)
    assert_same(x, want)


# ---- data constructs in @acc.jit ----

@acc.jit
def jacobi(a, b, iters):
    n, m = a.shape
    with acc.data(copy=[a], create=[b]):
        for it in range(iters):
            with acc.parallel(num_gangs=16):
                for i in acc.loop(range(1, n - 1), gang=True):
                    for j in acc.loop(range(1, m - 1), vector=32):
                        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
            with acc.parallel():
                for i in acc.loop(range(1, n - 1), gang=True):
                    for j in acc.loop(range(1, m - 1), vector=32):
                        a[i, j] = b[i, j]


def jacobi_numpy(a, iters):
    a = a.copy()
    for _ in range(iters):
        b = a.copy()
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        a = b
    return a


def test_jit_data_region_jacobi(rng):
    a = rand(rng, (40, 50), "float64")
    b = np.zeros_like(a)
    want = jacobi_numpy(a, 25)
    jacobi(a, b, 25)
    assert_same(a, want)
    assert acc.present_table() == []


@acc.jit
def data_copyin_copyout(x, y):
    with acc.data(copyin=[x], copyout=[y]):
        with acc.parallel(default="present"):
            for i in acc.loop(x.shape[0]):
                y[i] = x[i] + 1.0
        with acc.parallel(present=[x, y]):
            for i in acc.loop(x.shape[0]):
                y[i] = y[i] * 2.0


def test_jit_data_copyin_copyout_with_present_regions(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    data_copyin_copyout(x, y)
    assert_same(y, (x + 1.0) * 2.0)


@acc.jit
def data_section(x, k):
    with acc.data(copy=[x[0:k]]):
        with acc.parallel(present=[x[0:k]]):
            for i in acc.loop(k):
                x[i] = -x[i]


def test_jit_data_section(rng):
    x = rand(rng, N, "float64")
    want = x.copy()
    want[:1234] *= -1
    data_section(x, 1234)
    assert_same(x, want)


@acc.jit
def nested_data(x, y):
    with acc.data(copy=[x]):
        with acc.data(copy=[x, y]):
            with acc.parallel():
                for i in acc.loop(x.shape[0]):
                    y[i] = x[i] * 3.0
                    x[i] = 0.5
        with acc.parallel():
            for i in acc.loop(x.shape[0]):
                y[i] = y[i] + x[i]


def test_jit_nested_data_regions(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    want_y = x * 3.0
    nested_data(x, y)
    assert_same(x, np.full(N, 0.5))
    # y left the device when its inner region ended: the second kernel's y is an implicit copy
    assert_same(y, want_y + 0.5)


@acc.jit
def enter_only(x):
    acc.enter_data(copyin=[x])


@acc.jit
def exit_copyout(x):
    acc.exit_data(copyout=[x])


@acc.jit
def exit_delete_finalize(x):
    acc.exit_data(delete=[x], finalize=True)


def test_enter_data_reference_outlives_the_call(rng):
    x = rand(rng, N, "float64")
    want = 2.0 * x
    enter_only(x)
    try:
        assert acc.is_present(x)
        double_present(x)
        exit_copyout(x)
    finally:
        if acc.is_present(x):
            acc.delete(x, finalize=True)
    assert not acc.is_present(x)
    assert_same(x, want)


def test_exit_data_finalize_drops_every_reference(rng):
    x = rand(rng, N, "float64")
    enter_only(x)
    enter_only(x)
    acc.copyin(x)
    assert acc.is_present(x)
    exit_delete_finalize(x)
    assert not acc.is_present(x)


@acc.jit
def update_round_trip(x, y):
    with acc.data(copyin=[x], create=[y]):
        with acc.parallel(present=[x, y]):
            for i in acc.loop(x.shape[0]):
                y[i] = x[i] * 2.0
        acc.update_self(y)
        y[0] = y[0] + 1000.0  # host code between regions
        acc.update_device(y[0:1])
        with acc.parallel(present=[y]):
            for i in acc.loop(y.shape[0]):
                y[i] = y[i] + 1.0
        acc.update_self(y[0:3])


def test_update_self_device_and_sections(rng):
    x = rand(rng, N, "float64")
    y = np.zeros_like(x)
    update_round_trip(x, y)
    want = 2.0 * x
    want[0] += 1000.0
    want[:3] += 1.0  # only the first three came back after the second kernel
    if shared_memory():
        want[3:] += 1.0
    assert_same(y, want)


@acc.jit
def update_not_present(x):
    acc.update_self(x)


def test_update_of_an_absent_array_is_an_error(rng):
    x = rand(rng, 10, "float64")
    with pytest.raises(acc.NotPresentError):
        update_not_present(x)
    assert acc.present_table() == []


@acc.jit
def async_pipeline(x, y):
    n = x.shape[0]
    acc.enter_data(copyin=[x, y], async_=1)
    with acc.parallel(present=[x, y], async_=1):
        for i in acc.loop(n):
            y[i] = x[i] + y[i]
    # queue 2 writes the x that queue 1's kernel reads: it waits for queue 1 (without the
    # wait the two kernels may overlap, and y would see some of the tripled x)
    with acc.parallel(present=[x], async_=2, wait=1):
        for i in acc.loop(n):
            x[i] = x[i] * 3.0
    acc.wait(2, async_=1)
    acc.exit_data(copyout=[x, y], async_=1)
    acc.wait(1)


def test_async_queues_and_waits_in_jit(rng):
    x = rand(rng, 50_000, "float64")
    y = rand(rng, 50_000, "float64")
    wx, wy = 3.0 * x, x + y
    async_pipeline(x, y)
    assert_same(x, wx)
    assert_same(y, wy)
    assert acc.present_table() == []


@acc.jit
def wait_all(x):
    with acc.parallel(async_=3):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] + 1.0
    acc.wait()
    with acc.parallel(async_=4):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] * 2.0
    acc.wait(4)


def test_wait_all_and_wait_queue_in_jit(rng):
    x = rand(rng, 30_000, "float64")
    want = (x + 1.0) * 2.0
    wait_all(x)
    assert_same(x, want)


def test_python_level_directives_match(rng):
    """acc.enter_data / update / exit_data called from plain Python do the same thing."""
    x = rand(rng, N, "float64")
    want = 2.0 * x
    acc.enter_data(copyin=[x])
    try:
        double_present(x)
        acc.update_self(x)
        assert_same(x, want)
    finally:
        acc.exit_data(delete=[x])
    assert not acc.is_present(x)


def test_inspect_names_the_implicit_data_attribute(rng):
    x = rand(rng, 10, "float64")
    double_implicit(x)
    text = str(double_implicit.inspect())
    assert "x" in text and "copy" in text.lower()


# ---- observable only on discrete memory ----

@acc.parallel(copyin=["y"])
def write_copyin(y):
    for i in acc.loop(y.shape[0]):
        y[i] = -1.0


@acc.parallel(create=["t"], copyout=["y"])
def through_scratch(x, t, y):
    for i in acc.loop(x.shape[0]):
        t[i] = x[i] * 2.0
        y[i] = t[i] + 1.0


def test_discrete_copyin_is_not_copied_back(rng):
    require_discrete()
    y = rand(rng, N, "float64")
    before = y.copy()
    write_copyin(y)
    np.testing.assert_array_equal(y, before)


def test_discrete_create_leaves_the_host_alone(rng):
    require_discrete()
    x = rand(rng, N, "float64")
    t = rand(rng, N, "float64")
    before = t.copy()
    y = np.zeros_like(x)
    through_scratch(x, t, y)
    np.testing.assert_array_equal(t, before)
    assert_same(y, 2.0 * x + 1.0)


def test_discrete_present_array_is_not_refreshed(rng):
    require_discrete()
    x = rand(rng, N, "float64")
    dev = x.copy()
    acc.copyin(x)
    try:
        x[:] = 7.0  # the host copy changes; the device copy keeps the old values
        double_present(x)
        acc.update_self(x)
    finally:
        acc.delete(x)
    assert_same(x, 2.0 * dev)


@pytest.mark.skipif(os.environ.get("ACCJIT_DISCRETE_HOST") == "1", reason="already the discrete run")
def test_discrete_host_run(device):
    """This file once more on the host device with separate device memory."""
    if device != "host":
        pytest.skip("runs once, from the host-device parametrisation")
    env = dict(os.environ, ACCJIT_DISCRETE_HOST="1", ACCJIT_PYKERNELS_DEVICES="host")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(Path(__file__))],
                       capture_output=True, text=True, timeout=600, env=env, cwd=Path(__file__).parent)
    tail = r.stdout[-3000:] + r.stderr[-2000:]
    assert r.returncode == 0, tail
    assert " passed" in r.stdout and "observes separate device memory" not in r.stdout, tail
