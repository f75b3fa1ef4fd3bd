"""Snapshot tests: generated IR and CLIF for tests/in/*.c, PTX for
tests/in/*.c and tests/in/ptx/*.c (`accjit ptx`), rendered diagnostics for
tests/in/diag/*.c, compared with committed files in
tests/out/{ir,clif,ptx,diag}/. Re-bless with ACCJIT_BLESS=1 after reviewing a change:

    ACCJIT_BLESS=1 python -m pytest tests/test_snapshots.py
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
IN = HERE / "in"
OUT = HERE / "out"
BLESS = os.environ.get("ACCJIT_BLESS") == "1"

# Addresses baked into host code (kernel slots, string data) differ per run.
ADDR = re.compile(r"0x[0-9a-f_]{9,}")


def cpu_has_avx512():
    try:
        flags = Path("/proc/cpuinfo").read_text().split()
    except OSError:
        return False
    return "avx512f" in flags and "bmi2" in flags


def accjit(*args, cwd, avx512=False):
    # The CLIF snapshots are Cranelift's own code on every machine; the
    # "avx512" kind shows the same sources with AVX-512 loop bodies.
    env = dict(os.environ)
    env.pop("ACCJIT_NO_AVX512", None)
    # The non-temporal threshold follows the cache size: fix it.
    env.pop("ACCJIT_NO_NONTEMPORAL", None)
    env["ACCJIT_NONTEMPORAL_BYTES"] = str(12 << 20)
    if not avx512:
        env["ACCJIT_NO_AVX512"] = "1"
    return subprocess.run([sys.executable, "-m", "accjit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def check(kind, name, text):
    path = OUT / kind / (name + ".txt")
    if BLESS or not path.exists():
        if not BLESS and os.environ.get("CI"):
            pytest.fail(f"missing snapshot {path}; run with ACCJIT_BLESS=1 and commit it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    expected = path.read_text()
    assert text == expected, f"{kind} snapshot of {name} changed; re-bless with ACCJIT_BLESS=1 if intended"


@pytest.mark.parametrize("src", sorted(p.name for p in IN.glob("*.c")))
@pytest.mark.parametrize("kind", ["ir", "clif", "avx512"])
def test_codegen_snapshot(kind, src):
    if kind == "avx512" and not cpu_has_avx512():
        pytest.skip("this CPU has no AVX-512")
    r = accjit("clif" if kind == "avx512" else kind, src, cwd=IN, avx512=kind == "avx512")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    check(kind, Path(src).stem, ADDR.sub("<addr>", r.stdout))


PTX_IN = sorted([*(p.name for p in IN.glob("*.c")), *("ptx/" + p.name for p in (IN / "ptx").glob("*.c"))])


@pytest.mark.parametrize("src", PTX_IN)
def test_ptx_snapshot(src):
    # The nvidia back end's PTX, made without a GPU.
    r = accjit("ptx", src, cwd=IN)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert r.stdout.startswith(".version ")
    check("ptx", Path(src).stem, r.stdout)


@pytest.mark.parametrize("src", sorted(p.name for p in (IN / "diag").glob("*.c")))
def test_diagnostic_snapshot(src):
    r = accjit("ir", src, cwd=IN / "diag")
    assert r.returncode != 0
    # The first line is the one-line cause, pointing into the file.
    assert re.match(rf"{re.escape(src)}:\d+:\d+: error: ", r.stderr), r.stderr
    check("diag", Path(src).stem, r.stderr)
