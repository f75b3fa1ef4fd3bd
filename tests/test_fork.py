"""A child of fork() works as a fresh process would (rust/runtime/src/fork.rs).

After fork() only the forking thread exists in the child: the call workers,
the multicore pool's workers and the async-queue threads the parent started
are gone. The runtime starts each of them over in the child (the fork
generation), so calls (first, short, long), kernels on the pool, async queues
and waits, data regions, new compiles, Fortran procedures, Python kernels and
profiling work there on host and multicore, and the parent keeps working.

Every child runs under a join timeout: a regression fails here instead of
hanging the test run. The nvidia side (no CUDA in a child of a process that
initialised the driver) is tested over the fake libcuda in
rust/runtime/tests/fork_cuda.rs.
"""

import multiprocessing as mp
import os
import queue
import traceback

import numpy as np
import pytest

import accjit as acc

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is not available"),
    # Python >= 3.12 warns about forking a process that has threads; forking is what is tested.
    pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning"),
]

#: A child that takes longer than this is taken to hang.
TIMEOUT = 60

SRC = r"""
void k(int n, float *a) {
    #pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1.0f;
}
void k2(int n, float *a) {
    #pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2.0f;
}
float host_sum(int n, const float *a) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}
void k_async(int n, float *a, int q) {
    #pragma acc parallel loop present(a[0:n]) async(q)
    for (int i = 0; i < n; i++) a[i] = a[i] * 3.0f + (float)(i % 7);
    #pragma acc wait(q)
}
"""

DEVICES = ["multicore", "host"]


def _run_child(target, *args):
    """Runs `target(*args)` in a child of fork() and returns what it returned;
    fails when the child raised, died or did not finish in TIMEOUT."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()

    def child():
        try:
            q.put(("ok", target(*args)))
        except BaseException:  # noqa: BLE001 - everything goes back to the parent
            q.put(("error", traceback.format_exc()))

    p = ctx.Process(target=child)
    p.start()
    # Read before joining: a child cannot exit before its queue is drained.
    try:
        status, value = q.get(timeout=TIMEOUT)
    except queue.Empty:
        status, value = None, None
    p.join(10)
    if p.is_alive():
        p.kill()
        p.join()
        pytest.fail(f"the forked child hung (no result after {TIMEOUT} s)")
    assert status is not None, f"the forked child died with exit code {p.exitcode} and no result"
    assert status == "ok", f"the forked child raised:\n{value}"
    assert p.exitcode == 0, f"the forked child exited with code {p.exitcode}"
    return value


def _inputs(n, seed=42):
    return np.random.default_rng(seed).random(n, dtype=np.float32) * 10


@pytest.fixture(autouse=True)
def multicore_current():
    # The tests compile for host/multicore: make one of those current even
    # when ACC_DEVICE_TYPE names another (nvidia on a GPU machine).
    old = acc.get_device_type()
    acc.set_device_type("multicore")
    yield
    acc.set_device_type(old)


@pytest.fixture(params=DEVICES)
def device(request):
    old = acc.get_device_type()
    acc.set_device_type(request.param)
    yield request.param
    acc.set_device_type(old)


def test_the_reproducer_does_not_hang_in_the_child():
    # The lead's reproducer: long calls (a worker thread) and kernels on the
    # multicore pool in the parent, then the same in a forked child.
    lib = acc.c(SRC, name="fork_repro.c", device_type="multicore")
    n = 20_000_000
    a = np.ones(n, dtype=np.float32)
    lib.k(a.size, a)
    lib.k(a.size, a)
    lib.k2(a.size, a)

    def child():
        b = np.ones(n, dtype=np.float32)
        lib.k2(b.size, b)
        lib.k(b.size, b)
        return float(b[:10].sum())

    assert _run_child(child) == 30.0
    assert float(a[0]) == 6.0
    lib.k(a.size, a)
    assert float(a[-1]) == 7.0, "the parent keeps working"


def test_first_short_and_long_calls_and_kernels(device):
    lib = acc.c(SRC, name=f"fork_calls_{device}.c", device_type=device)
    x = _inputs(4096)
    # Warm every path in the parent: worker threads, inline calls, the pool.
    for _ in range(3):
        lib.k(x.size, x.copy())
    lib.k2(x.size, x.copy())

    def child():
        out = {}
        big = _inputs(3_000_000, seed=7)
        want = (big + 1.0) * 2.0
        lib.k(big.size, big)  # long: a worker thread of the child
        lib.k2(big.size, big)
        out["long"] = bool(np.allclose(big, want))
        small = x.copy()
        for _ in range(5):  # short: inline after the first
            lib.k(small.size, small)
        out["short"] = bool(np.allclose(small, x + 5.0))
        # A function the parent never called: its first call in the child.
        out["first"] = float(lib.host_sum(16, np.arange(16, dtype=np.float32)))
        out["stats"] = acc._core.call_stats()
        return out

    got = _run_child(child)
    assert got["long"] and got["short"]
    assert got["first"] == float(np.arange(16).sum())
    assert got["stats"]["worker"] > 0, "the child's calls went to worker threads of its own"
    y = x.copy()
    lib.k(y.size, y)
    assert np.allclose(y, x + 1.0), "the parent keeps working"


def test_kernels_use_the_childs_own_pool():
    # num_gangs(4) kernels whose gangs wait for each other can only finish
    # when four threads run them at once: the child's pool has its workers.
    src = r"""
    #include <openacc.h>
    int rendezvous(int *arrived) {
        int ok = 1;
        #pragma acc parallel num_gangs(4) copy(arrived[0:1]) reduction(&&:ok)
        {
            #pragma acc atomic update
            arrived[0] += 1;
            long spins = 0;
            int seen = 0;
            while (seen < 4 && spins < 2000000000L) {
                #pragma acc atomic read
                seen = arrived[0];
                spins++;
            }
            ok = seen == 4;
        }
        return ok;
    }
    """
    old = acc.get_num_threads()
    acc.set_num_threads(4)
    try:
        lib = acc.c(src, name="fork_rendezvous.c", device_type="multicore")
        assert lib.rendezvous(np.zeros(1, dtype=np.int32)) == 1

        def child():
            return lib.rendezvous(np.zeros(1, dtype=np.int32))

        assert _run_child(child) == 1
    finally:
        acc.set_num_threads(old)


def test_async_queues_and_wait(device):
    lib = acc.c(SRC, name=f"fork_async_{device}.c", device_type=device)
    x = _inputs(100_000)
    # The parent's queue threads exist at the fork (on multicore).
    a = x.copy()
    acc.copyin(a)
    lib.k_async(a.size, a, 1)
    acc.update_self(a, async_=2)
    acc.wait()
    acc.delete(a)

    def child():
        b = x.copy()
        acc.copyin(b)
        lib.k_async(b.size, b, 1)
        acc.update_self(b, async_=1)
        acc.wait(1)
        idle = acc.async_test(1)
        acc.update_device(b, async_=3)
        acc.wait(3, async_=1)
        acc.wait()
        acc.delete(b)
        return b, idle

    b, idle = _run_child(child)
    assert idle
    assert np.allclose(b, x * 3.0 + (np.arange(x.size) % 7))


def test_the_data_environment_comes_along(device):
    lib = acc.c(SRC, name=f"fork_data_{device}.c", device_type=device)
    x = _inputs(10_000)
    dyn = x.copy()
    acc.copyin(dyn)
    try:
        with acc.data(copy=[x]):

            def child():
                present = acc.is_present(dyn) and acc.is_present(x)
                acc.update_device(dyn)
                acc.copyin(dyn)  # a second reference, in the child only
                lib.k(dyn.size, dyn)
                acc.delete(dyn)
                c = _inputs(500, seed=3)
                with acc.data(copyin=[c]):
                    inside = acc.is_present(c)
                return present, inside, acc.is_present(c), dyn

            present, inside, after, got = _run_child(child)
            assert present and inside and not after
            assert np.allclose(got, x + 1.0)
            assert acc.is_present(dyn), "the child's delete does not touch the parent's table"
    finally:
        acc.delete(dyn)


def test_new_compiles_fortran_and_python_kernels(device):
    fsrc = """
subroutine axpy(n, a, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$acc parallel loop copyin(x) copy(y)
  do i = 1, n
    y(i) = a * x(i) + y(i)
  end do
end subroutine
"""

    @acc.parallel
    def scale(s, v):
        for i in acc.loop(len(v)):
            v[i] = v[i] * s

    f = acc.fortran(fsrc, name=f"fork_axpy_{device}.f90", device_type=device)
    v = np.arange(64, dtype=np.float64)
    scale(2.0, v)  # the parent's specialisation
    x = np.random.default_rng(42).random(1000)

    def child():
        y = np.ones(1000)
        f.axpy(1000, 2.0, x, y)
        w = np.arange(64, dtype=np.float64)
        scale(3.0, w)  # the parent's specialisation, in the child
        w32 = np.arange(64, dtype=np.float32)
        scale(0.5, w32)  # a new one
        lib = acc.c("int twice(int v) { return 2 * v; }", name=f"fork_new_{device}.c", device_type=device)
        return y, w, w32, lib.twice(21)

    y, w, w32, twice = _run_child(child)
    assert np.allclose(y, 2.0 * x + 1.0)
    assert np.allclose(w, 3.0 * np.arange(64))
    assert np.allclose(w32, 0.5 * np.arange(64, dtype=np.float32))
    assert twice == 42
    assert np.allclose(v, 2.0 * np.arange(64)), "the parent keeps working"


def test_profiling_in_the_child(device):
    lib = acc.c(SRC, name=f"fork_prof_{device}.c", device_type=device)
    x = _inputs(1000)
    with acc.profile() as prof:
        lib.k(x.size, x)
    assert any(e["kind"] == "enqueue_launch" for e in prof.events)

    def child():
        y = x.copy()
        with acc.profile() as p:
            lib.k(y.size, y)
            lib.k2(y.size, y)
        return [e["kind"] for e in p.events]

    kinds = _run_child(child)
    assert kinds.count("enqueue_launch") == 2, kinds


def test_a_grandchild_works_too():
    lib = acc.c(SRC, name="fork_grand.c", device_type="multicore")
    x = _inputs(200_000)
    lib.k(x.size, x.copy())

    def grandchild():
        y = x.copy()
        lib.k(y.size, y)
        lib.k2(y.size, y)
        return y

    def child():
        y = x.copy()
        lib.k2(y.size, y)
        return y, _run_child(grandchild)

    y, z = _run_child(child)
    assert np.allclose(y, x * 2.0)
    assert np.allclose(z, (x + 1.0) * 2.0)
