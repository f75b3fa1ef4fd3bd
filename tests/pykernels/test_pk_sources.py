"""Where kernels come from: a module file, `python -c`, a Jupyter-style cell (source
registered in linecache), a closure made by a factory; and on nvidia, CuPy and PyTorch
CUDA arrays used in place (skipped where there is no GPU or no such package)."""

import linecache
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pkutil import acc, assert_same, rand

REPO = Path(__file__).resolve().parents[2]


def run_python(args, device):
    env = dict(os.environ, ACC_DEVICE_TYPE=device)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (env.get("PYTHONPATH"), str(REPO / "python")) if x)
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, env=env)


SNIPPET = (
    "import numpy as np, accjit as acc\n"
    "@acc.parallel\n"
    "def k(x):\n"
    "    s = 0.0\n"
    "    for i in acc.loop(x.shape[0], reduction={'+': 's'}):\n"
    "        x[i] = x[i] * 3.0\n"
    "        s += x[i]\n"
    "    return s\n"
    "x = np.random.default_rng(5).random(1000)\n"
    "w = x * 3.0\n"
    "s = k(x)\n"
    "assert np.allclose(x, w) and abs(s - w.sum()) < 1e-9 * 1000, (s, w.sum())\n"
    "print('ok', acc.get_device_type())\n"
)


def test_kernel_defined_in_python_dash_c(device):
    if device == "nvidia":
        pytest.skip("the subprocess runs on the CPU devices")
    r = run_python(["-c", SNIPPET], device)
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr
    assert r.stdout.split() == ["ok", device]


def test_error_in_python_dash_c_points_at_the_command_line(device):
    if device == "nvidia":
        pytest.skip("the subprocess runs on the CPU devices")
    bad = SNIPPET.replace("x[i] = x[i] * 3.0", "x[i] = x[i] * nope")
    r = run_python(["-c", bad], device)
    assert r.returncode != 0
    assert "nope" in r.stderr and ":6:" in r.stderr, r.stderr


def test_kernel_in_a_module_file(tmp_path, device):
    mod = tmp_path / "user_kernels.py"
    mod.write_text(SNIPPET)
    if device == "nvidia":
        pytest.skip("the subprocess runs on the CPU devices")
    r = run_python([str(mod)], device)
    assert r.returncode == 0 and r.stderr == "", r.stdout + r.stderr


def test_kernel_defined_in_a_notebook_cell(rng):
    """As IPython does: the cell's text is in linecache under the cell's file name."""
    name = f"<ipython-input-{rng.integers(1 << 30)}-cell>"
    src = (
        "@acc.parallel\n"
        "def cell_kernel(x, y):\n"
        "    for i in acc.loop(x.shape[0]):\n"
        "        y[i] = x[i] ** 2 - 1.0\n"
    )
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    env = {"acc": acc}
    exec(compile(src, name, "exec"), env)
    x = rand(rng, 500, "float64")
    y = np.zeros_like(x)
    env["cell_kernel"](x, y)
    assert_same(y, x ** 2 - 1.0)


def test_redefining_a_cell_kernel_takes_the_new_body(rng):
    name = f"<ipython-input-{rng.integers(1 << 30)}-redef>"
    x = rand(rng, 100, "float64")
    results = []
    for k in (2.0, 5.0):
        src = (
            "@acc.parallel\n"
            "def f(x, y):\n"
            "    for i in acc.loop(x.shape[0]):\n"
            f"        y[i] = x[i] * {k}\n"
        )
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        env = {"acc": acc}
        exec(compile(src, name, "exec"), env)
        y = np.zeros_like(x)
        env["f"](x, y)
        results.append(y)
    assert_same(results[0], 2.0 * x)
    assert_same(results[1], 5.0 * x)


def make_scaler(factor):
    @acc.parallel
    def scale(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i] * factor

    return scale


def test_factory_closures_are_distinct_kernels(rng):
    two, three = make_scaler(2.0), make_scaler(3.0)
    x = rand(rng, 100, "float64")
    a, b = x.copy(), x.copy()
    two(a)
    three(b)
    assert_same(a, 2.0 * x)
    assert_same(b, 3.0 * x)


# ---- CUDA arrays on nvidia ----

@acc.parallel
def axpy_inplace(a, x, y):
    for i in acc.loop(x.shape[0]):
        y[i] = a * x[i] + y[i]


@acc.parallel
def row_sums(m, out):
    for i in acc.loop(m.shape[0], gang=True):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s


def test_cupy_arrays_in_place(device, rng):
    if device != "nvidia":
        pytest.skip("CUDA arrays are for the nvidia device")
    cp = pytest.importorskip("cupy")
    x = cp.asarray(rand(rng, 10_000, "float32"))
    y = cp.asarray(rand(rng, 10_000, "float32"))
    want = 2.0 * x.get() + y.get()
    ptr = y.data.ptr
    axpy_inplace(2.0, x, y)
    assert y.data.ptr == ptr
    assert_same(y.get(), want, "float32")
    m = cp.asarray(rand(rng, (64, 100), "float64"))
    out = cp.zeros(64)
    row_sums(m, out)
    assert_same(out.get(), m.get().sum(axis=1), rtol=1e-12)


def test_torch_cuda_tensors_in_place(device, rng):
    if device != "nvidia":
        pytest.skip("CUDA arrays are for the nvidia device")
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA here")
    x = torch.tensor(rand(rng, 4096, "float32"), device="cuda")
    y = torch.tensor(rand(rng, 4096, "float32"), device="cuda")
    want = 0.5 * x.cpu().numpy() + y.cpu().numpy()
    axpy_inplace(0.5, x, y)
    assert_same(y.cpu().numpy(), want, "float32")
