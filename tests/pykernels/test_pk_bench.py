"""benchmarks/bench_pykernels.py stays runnable: its main() on tiny sizes, on the
device of the suite's fixture, checks the four kernels (Python kernel, its acc.c
twin, Numba/CuPy where present) against NumPy and prints the table. Timings are
not asserted here (a shared CI machine), only that it runs and every result is right."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_pykernels.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_pykernels_under_test", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_pykernels_runs_and_is_correct(device, capsys):
    bench = load_bench()
    rc = bench.main(["--device", device, "--quick", "--reps", "2", "--n", "20000", "--m", "48", "--mm", "24"])
    out = capsys.readouterr().out
    assert rc == 0, out
    rows = [line for line in out.splitlines() if line.startswith(("saxpy", "Jacobi", "sum", "matmul"))]
    assert len(rows) == 4 and all(line.endswith("yes") for line in rows), out
    assert "first call of a new kernel" in out and "cached call" in out
