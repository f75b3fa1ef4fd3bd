"""Fortran `print` in device code whose lines come in no defined order:
tests/conformance/fortran/250_print_gang_loop_lines.f90 prints one line per
iteration of a gang loop (and an acc routine a formatted one every fifth),
so its stdout is checked here as a set — sorted, against the lines computed
from the program's formula — on each device type the conformance corpus
runs on (`ACCJIT_CONFORMANCE_DEVICES`, default multicore and host; nvidia
where one is named and present). Whole lines, each exactly once: what the
runtime's per-statement output (and, on nvidia, the device log's replay)
guarantees.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROG = Path(__file__).parent / "conformance" / "fortran" / "250_print_gang_loop_lines.f90"
DEVICES = [d.strip() for d in os.environ.get("ACCJIT_CONFORMANCE_DEVICES", "multicore,host").split(",") if d.strip()]


def expected_lines():
    """The program's lines, from its formula, as gfortran writes them."""
    lines = []
    for i in range(1, 41):
        a = (i * 37 + 11) % 101
        b = (a * a) % 97 + i
        lines.append(f" item {i:11d} value {b:11d} {'T' if b > 50 else 'F'}")
        if i % 5 == 0:
            lines.append(f"routine{i:4d}:{b:6d}")
    return lines


def run(device):
    env = dict(os.environ, ACC_DEVICE_TYPE=device)
    return subprocess.run([sys.executable, "-m", "accjit", "run", str(PROG)], capture_output=True, text=True, env=env, timeout=120)


@pytest.mark.parametrize("device", DEVICES)
def test_gang_loop_lines_come_out_whole_as_a_set(device):
    if device == "nvidia":
        import accjit as acc

        if acc.get_num_devices("nvidia") == 0:
            pytest.skip("no nvidia device")
    cp = run(device)
    assert cp.returncode == 0, cp.stdout[-3000:] + cp.stderr[-3000:]
    assert cp.stderr == "", cp.stderr
    got = cp.stdout.splitlines()
    want = expected_lines()
    assert len(want) == 48
    assert sorted(got) == sorted(want), "\n".join(sorted(set(got) ^ set(want))[:20])
