"""fork() and the nvidia device on a real GPU (rust/runtime/src/fork.rs,
rust/runtime/src/cuda/driver.rs's fork guard; docs/python-api.md
"Processes and fork()").

Cases, each child under a timeout (a hang is a row "HUNG", not a stuck script):
  1. parent used nvidia, forked child calls an nvidia function: AccError naming
     fork (acc_error_device_unavailable), no hang, no crash;
  2. the same child then runs a multicore function: correct results;
  3. parent used nvidia, a 'spawn' child uses nvidia: correct results;
  4. a fresh process that never touched CUDA forks, and the child uses nvidia:
     correct results (the guard only refuses an inherited driver);
  5. a parent in which CuPy (or PyTorch) initialised CUDA, never accjit, forks, and
     the child calls an nvidia function: AccError naming fork (cuInit fails
     there), no hang;
  6. the parent keeps using nvidia after its children: correct results.

    python scripts/gpu/fork_nvidia.py

The table is printed last; every row should say "ok".
"""

import ast
import multiprocessing as mp
import queue
import subprocess
import sys
import textwrap
import traceback

import numpy as np

import accjit as acc

SRC = r"""
void scale(int n, float s, float *a) {
    #pragma acc parallel loop copy(a[0:n])
    for (int i = 0; i < n; i++) a[i] = a[i] * s + 1.0f;
}
"""
TIMEOUT = 120
N = 1 << 20


def expected(x, s):
    return x * np.float32(s) + np.float32(1.0)


def in_child(method, target):
    """(status, value) of target() run in a child started by `method`."""
    ctx = mp.get_context(method)
    q = ctx.Queue()
    p = ctx.Process(target=_child_main, args=(q, target))
    p.start()
    try:
        status, value = q.get(timeout=TIMEOUT)
    except queue.Empty:
        status, value = "HUNG", f"no result after {TIMEOUT} s"
    p.join(10)
    if p.is_alive():
        p.kill()
        p.join()
        return "HUNG", value
    if status == "HUNG" and p.exitcode:
        return "DIED", f"exit code {p.exitcode}"
    return status, value


def _child_main(q, target):
    try:
        q.put(("ok", target()))
    except BaseException:  # noqa: BLE001
        q.put(("raised", traceback.format_exc()))


def nvidia_in_child():
    """'AccError: ...' when the nvidia call raised, else whether it computed right."""
    x = np.random.default_rng(1).random(N, dtype=np.float32)
    want = expected(x, 2.0)
    try:
        # Raises already here when the child has no usable nvidia device
        # (DeviceTypeUnavailableError, an AccError: sitting V).
        acc.set_device_type("nvidia")
        lib = acc.c(SRC, name="fork_nv.c", device_type="nvidia")
        lib.scale(N, 2.0, x)
    except acc.AccError as e:
        return f"AccError: {e}"
    return "no error, results " + ("correct" if np.allclose(x, want) else "WRONG")


def multicore_in_child():
    acc.set_device_type("multicore")
    lib = acc.c(SRC, name="fork_mc.c", device_type="multicore")
    x = np.random.default_rng(2).random(N, dtype=np.float32)
    want = expected(x, 3.0)
    lib.scale(N, 3.0, x)
    return bool(np.allclose(x, want))


def nvidia_works():
    acc.set_device_type("nvidia")
    lib = acc.c(SRC, name="fork_nv_ok.c", device_type="nvidia")
    x = np.random.default_rng(3).random(N, dtype=np.float32)
    want = expected(x, 0.5)
    lib.scale(N, 0.5, x)
    return bool(np.allclose(x, want))


FRESH = textwrap.dedent(
    """
    import multiprocessing as mp, sys
    sys.path.insert(0, {here!r})
    import fork_nvidia as t
    import accjit as acc
    acc.set_device_type("multicore")
    print("RESULT", t.multicore_in_child() and t.in_child("fork", t.nvidia_works))
    """
)


OTHER_LIB = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {here!r})
    import fork_nvidia as t
    try:
        import cupy as cp
        float(cp.arange(4).sum())
    except Exception:
        try:
            import torch
            float(torch.arange(4, device="cuda").sum())
        except Exception:
            print("RESULT SKIP")
            sys.exit(0)
    print("RESULT", t.in_child("fork", t.nvidia_in_child))
    """
)


def main():
    rows = []
    if acc.get_num_devices("nvidia") == 0:
        print("no nvidia device: nothing to check")
        return 0
    acc.set_device_type("nvidia")
    ok = nvidia_works()
    rows.append(("parent uses nvidia", "ok" if ok else "WRONG"))

    status, value = in_child("fork", nvidia_in_child)
    good = status == "ok" and value.startswith("AccError") and "fork" in value
    rows.append(("fork child, nvidia call -> AccError", "ok" if good else f"{status}: {value}"))

    status, value = in_child("fork", multicore_in_child)
    rows.append(("fork child, multicore", "ok" if status == "ok" and value else f"{status}: {value}"))

    # A fresh interpreter, as multiprocessing's 'spawn' makes.
    here = __file__.rsplit("/", 1)[0] or "."
    code = f"import sys; sys.path.insert(0, {here!r}); import fork_nvidia as t; print('RESULT', t.nvidia_works())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT)
    rows.append(("fresh process (as spawn), nvidia", "ok" if "RESULT True" in r.stdout else f"WRONG {r.stdout} {r.stderr}"))

    code = FRESH.format(here=here)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=2 * TIMEOUT)
    rows.append(("no CUDA in parent, fork child uses nvidia", "ok" if "RESULT ('ok', True)" in r.stdout else f"WRONG {r.stdout} {r.stderr}"))

    # CUDA initialised in the parent by another library, never by accjit.
    code = OTHER_LIB.format(here=here)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=2 * TIMEOUT)
    line = ([ln for ln in r.stdout.splitlines() if ln.startswith("RESULT")] or [f"no result: {r.stderr}"])[-1]
    # Either the driver refuses the child (an AccError that names fork) or
    # it lets the child start CUDA afresh (then the results must be right):
    # accjit's own state in that child is fresh; what must not happen is a
    # hang, a crash or a wrong result.
    # (The tuple's repr quotes a message holding ' with ": read it back.)
    try:
        status, what = ast.literal_eval(line[len("RESULT "):]) if line.startswith("RESULT (") else ("", line)
    except (ValueError, SyntaxError):
        status, what = "", line
    good = (status == "ok" and str(what).startswith("AccError") and "fork" in str(what)) or "results correct" in str(what) or line.endswith("SKIP")
    rows.append(("other lib's CUDA in parent, fork child nvidia", "ok" if good else line))
    print("(other library's CUDA, child's nvidia call:)", line)

    ok = nvidia_works()
    rows.append(("parent still uses nvidia", "ok" if ok else "WRONG"))

    for name, verdict in rows:
        if verdict != "ok":
            print(f"--- {name}: whole verdict ---\n{verdict.rstrip()}")
    print("== fork and nvidia")
    for name, verdict in rows:
        print(f"{name:45s} {'ok' if verdict == 'ok' else 'FAILED (whole verdict above)'}")
    return 0 if all(v == "ok" for _, v in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
