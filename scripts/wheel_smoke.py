"""Smoke tests of an *installed* accjit (a wheel in a fresh environment).

Run it from outside the source tree with the interpreter that has the
wheel installed (`./run wheel-smoke` does: it copies this file to a temp
dir, makes a fresh venv, installs the wheel, and runs it with a PATH that
has no cargo or rustc):

    python wheel_smoke.py [--device TYPE] [--allow-toolchain]

It checks that the environment is what a user has (the package comes from
site-packages, not from a checkout; no Rust toolchain on PATH unless
--allow-toolchain), then exercises the package through its public faces:
`python -m accjit.demo`, `acc.c` (a kernel checked against NumPy on random
input), `acc.fortran`, a Python `@acc.parallel` kernel, the data API
(copyin / present / copyout), `accjit run` of a small C program, `accjit
info` and `accjit cache info`/`clear`. The device type is ACC_DEVICE_TYPE
(or --device), multicore by default; on a GPU machine `--device nvidia`
runs the same checks on the GPU. Prints one line per check and a table
last; exits 1 if any check failed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

RESULTS = []  # (name, ok, detail, seconds)


def check(name):
    """Decorator: run the function as one named check, recording its result."""

    def wrap(fn):
        t0 = time.perf_counter()
        try:
            detail = fn() or ""
            ok = True
        except Exception as e:  # noqa: BLE001 (every failure is reported, none stops the run)
            ok = False
            detail = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        dt = time.perf_counter() - t0
        RESULTS.append((name, ok, detail, dt))
        print(f"[{'ok' if ok else 'FAIL'}] {name} ({dt:.2f} s) {detail}", flush=True)
        return fn

    return wrap


def run_cli(*args, timeout=300, env=None):
    """`python -m accjit ARGS` (and the `accjit` script) in a child process."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "accjit", *args], capture_output=True, text=True, timeout=timeout, env=e)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default=None, help="device type (default: ACC_DEVICE_TYPE or multicore)")
    ap.add_argument("--allow-toolchain", action="store_true", help="do not fail when cargo/rustc are on PATH")
    opts = ap.parse_args()
    if opts.device:
        os.environ["ACC_DEVICE_TYPE"] = opts.device
    device = os.environ.get("ACC_DEVICE_TYPE", "multicore")

    import numpy as np

    rng = np.random.default_rng(20261124)

    @check("environment: installed package, no toolchain")
    def _():
        import accjit

        pkg = Path(accjit.__file__).resolve().parent
        # Installed by pip (a venv's site-packages, or `pip install --target`): its dist-info is beside it.
        dist_info = sorted(p.name for p in pkg.parent.glob("accjit-*.dist-info"))
        assert dist_info or os.environ.get("ACCJIT_SMOKE_ANY_LOCATION"), f"accjit imported from {pkg}, which pip did not install (no accjit-*.dist-info beside it)"
        for up in pkg.parents:
            assert not (up / "Cargo.toml").exists() and not (up / "pyproject.toml").exists(), f"accjit at {pkg} is inside a source tree ({up})"
        assert not (Path.cwd() / "python" / "accjit").exists(), "run from outside the source tree"
        tools = {t: shutil.which(t) for t in ("cargo", "rustc")}
        if not opts.allow_toolchain:
            assert all(v is None for v in tools.values()), f"Rust toolchain on PATH: {tools}"
        so = sorted(p.name for p in pkg.glob("_core*.so"))
        assert so, "no _core extension in the package"
        return f"{pkg}; {so[0]}; {dist_info[0] if dist_info else 'no dist-info'}; cargo={tools['cargo']} rustc={tools['rustc']}; python {sys.version.split()[0]}"

    import accjit as acc

    @check("python -m accjit.demo")
    def _():
        r = subprocess.run([sys.executable, "-m", "accjit.demo"], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
        assert r.stderr.strip() == "", f"stderr: {r.stderr}"
        return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""

    @check(f"acc.c kernel vs NumPy ({device})")
    def _():
        lib = acc.c(
            r"""
            #include <math.h>
            void axpby_sin(int n, double a, const double *x, double b, double *y) {
                #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
                for (int i = 0; i < n; i++) y[i] = a * sin(x[i]) + b * y[i];
            }
            double dot(int n, const double *x, const double *y) {
                double s = 0.0;
                #pragma acc parallel loop reduction(+:s) copyin(x[0:n], y[0:n])
                for (int i = 0; i < n; i++) s += x[i] * y[i];
                return s;
            }
            """,
            name="smoke_c.c",
        )
        n = 100_003
        x = rng.standard_normal(n)
        y = rng.standard_normal(n)
        want = 1.5 * np.sin(x) - 0.25 * y
        lib.axpby_sin(n, 1.5, x, -0.25, y)
        assert np.allclose(y, want, rtol=1e-12, atol=1e-12), f"max err {np.abs(y - want).max()}"
        d = lib.dot(n, x, y)
        assert np.isclose(d, x @ y, rtol=1e-9), f"{d} != {x @ y}"
        return f"n={n}, compile {lib.timings['total'] * 1e3:.0f} ms"

    @check(f"acc.fortran procedure vs NumPy ({device})")
    def _():
        m = acc.fortran(
            """
            module smoke
            contains
              subroutine scale_add(a, b, s)
                real(8), intent(inout) :: a(:,:)
                real(8), intent(in) :: b(:,:)
                real(8), value :: s
                integer :: i, j
                !$acc parallel loop collapse(2) copy(a) copyin(b)
                do j = 1, size(a, 2)
                  do i = 1, size(a, 1)
                    a(i, j) = s * a(i, j) + b(i, j)
                  end do
                end do
              end subroutine
            end module
            """
        )
        a = np.asfortranarray(rng.random((37, 53)))
        b = np.asfortranarray(rng.random((37, 53)))
        want = 3.0 * a + b
        m.scale_add(a, b, 3.0)
        assert np.allclose(a, want), f"max err {np.abs(a - want).max()}"
        return "37x53"

    @check(f"@acc.parallel Python kernel vs NumPy ({device})")
    def _():
        @acc.parallel
        def saxpy(a, x, y):
            for i in acc.loop(len(x)):
                y[i] = a * x[i] + y[i]

        x = rng.random(50_000).astype(np.float32)
        y = rng.random(50_000).astype(np.float32)
        want = np.float32(2.5) * x + y
        saxpy(np.float32(2.5), x, y)
        assert np.allclose(y, want, rtol=1e-6), f"max err {np.abs(y - want).max()}"
        return "n=50000 float32"

    @check(f"data API copyin/present/copyout ({device})")
    def _():
        lib = acc.c(
            r"""
            void twice(int n, double *a) {
                #pragma acc parallel loop present(a[0:n])
                for (int i = 0; i < n; i++) a[i] = 2.0 * a[i] + 1.0;
            }
            """,
            name="smoke_data.c",
        )
        a = rng.random(4096)
        want = 2.0 * (2.0 * a + 1.0) + 1.0
        acc.copyin(a)
        assert acc.is_present(a)
        lib.twice(a.size, a)
        lib.twice(a.size, a)
        acc.copyout(a)
        assert not acc.is_present(a)
        assert np.allclose(a, want)
        b = np.zeros(8)
        try:
            lib.twice(b.size, b)
        except acc.NotPresentError:
            pass
        else:
            raise AssertionError("present() of data never copied in did not raise NotPresentError")
        return "present table round trip, NotPresentError"

    with tempfile.TemporaryDirectory(prefix="accjit-smoke-") as tmp:
        tmp = Path(tmp)

        @check(f"accjit run prog.c ({device})")
        def _():
            prog = tmp / "prog.c"
            prog.write_text(
                r"""
                #include <stdio.h>
                #include <stdlib.h>
                int main(int argc, char **argv) {
                    int n = argc > 1 ? atoi(argv[1]) : 1000;
                    double *a = malloc(n * sizeof(double));
                    srand(42);
                    for (int i = 0; i < n; i++) a[i] = rand() / (double)RAND_MAX;
                    double s = 0.0, want = 0.0;
                    #pragma acc parallel loop reduction(+:s) copyin(a[0:n])
                    for (int i = 0; i < n; i++) s += a[i] * a[i];
                    for (int i = 0; i < n; i++) want += a[i] * a[i];
                    if (s < want - 1e-9 * want || s > want + 1e-9 * want) { printf("FAIL %g %g\n", s, want); return 1; }
                    printf("sum %d %.6f\n", n, s);
                    free(a);
                    return 7;
                }
                """
            )
            r = run_cli("run", str(prog), "--", "5000")
            assert r.returncode == 7, f"exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}"
            assert r.stdout.startswith("sum 5000 "), r.stdout
            assert r.stderr == "", r.stderr
            # The console script: beside the interpreter in a venv, in
            # <target>/bin for `pip install --target`.
            places = [Path(sys.executable).parent / "accjit", Path(acc.__file__).resolve().parent.parent / "bin" / "accjit"]
            script = next((p for p in places if p.exists()), None)
            if script is None:
                assert sys.prefix == sys.base_prefix, f"no `accjit` console script in the venv ({places[0]})"
                return r.stdout.strip() + "; console script not found (not a venv), skipped"
            r2 = subprocess.run([str(script), "run", str(prog)], capture_output=True, text=True, timeout=300)
            assert r2.returncode == 7 and r2.stdout.startswith("sum 1000 "), (r2.returncode, r2.stdout, r2.stderr)
            return r.stdout.strip() + f"; {script} ok"

        @check("accjit info")
        def _():
            r = run_cli("info")
            assert r.returncode == 0, r.stderr
            out = r.stdout
            assert out.startswith(f"accjit {acc.__version__}"), out
            for d in ("host", "multicore", "nvidia", "opencl"):
                assert f"\n  {d}\n" in out, f"device type {d} missing:\n{out}"
            assert "cache directory:" in out and "threads:" in out, out
            nv = out.split("\n  nvidia\n", 1)[1].split("\n  opencl\n", 1)[0]
            if acc.get_num_devices("nvidia") > 0:
                assert "compute capability" in nv, nv
            else:
                assert "none:" in nv, nv
            print(out, end="")
            return nv.strip().splitlines()[-1].strip()

        @check("accjit cache info / clear (temp ACCJIT_CACHE_DIR)")
        def _():
            cache = tmp / "cache"
            env = {"ACCJIT_CACHE_DIR": str(cache), "ACCJIT_CACHE_MAX_MB": "7"}
            r = run_cli("cache", "info", env=env)
            assert r.returncode == 0, r.stderr
            assert f"directory: {cache}" in r.stdout and "entries: 0" in r.stdout, r.stdout
            assert f"limit: {7 << 20} " in r.stdout, r.stdout
            # entries written by the cache's own writer, and a file that is not the cache's
            code = "import accjit._core as c; assert c._disk_cache_store('k1', b'x' * 1000) and c._disk_cache_store('k2', b'y' * 24)"
            w = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, **env), capture_output=True, text=True, timeout=120)
            assert w.returncode == 0, w.stderr
            (cache / "keep.txt").write_text("not accjit's")
            r = run_cli("cache", "info", env=env)
            assert "entries: 2" in r.stdout, r.stdout
            r = run_cli("cache", "clear", env=env)
            assert r.returncode == 0 and r.stdout.startswith("removed 2 entries"), (r.stdout, r.stderr)
            assert (cache / "keep.txt").exists(), "cache clear removed a file that is not accjit's"
            r = run_cli("cache", "info", env=env)
            assert "entries: 0" in r.stdout, r.stdout
            info = run_cli("cache", "info")  # the user's real cache: just readable
            assert info.returncode == 0, info.stderr
            return info.stdout.splitlines()[0]

    width = max(len(n) for n, *_ in RESULTS)
    print()
    print(f"{'check'.ljust(width)}  result  seconds")
    for name, ok, detail, dt in RESULTS:
        print(f"{name.ljust(width)}  {'ok' if ok else 'FAIL':6}  {dt:7.2f}")
    failed = sum(not ok for _, ok, *_ in RESULTS)
    print(f"accjit {acc.__version__}, python {sys.version.split()[0]}, device {device}: {len(RESULTS) - failed}/{len(RESULTS)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
