"""Fortran print/write in device code on nvidia (rust/back/ptx/src/iolog.rs
logs each call, rust/runtime/src/fortran/device_log.rs replays the log after
the launch): the corpus programs that print from device code run with
ACC_DEVICE_TYPE=nvidia through `python -m accjit run`; a program with a
.stdout file must print exactly those bytes, the others must print the same
lines as on multicore, as a set (threads print in no defined order), exit 0
with an empty stderr and no FAIL line. Also one overflow case: a kernel
printing more than the device log holds must print the statements that fit,
whole and once each (over 10000 of the 100000), and warn on stderr about the
others, not crash. Prints a table last; exit status 1 when a check failed.

    python scripts/gpu/fortran_print_nvidia.py
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "conformance" / "fortran"
PROGRAMS = ["240_print_in_device_code.f90", "250_print_gang_loop_lines.f90", "251_write_gang_loop_unit.f90"]

# A kernel writing more than the log's 16 MiB holds (each statement claims a region of at least
# 256 bytes): the statements that fit print whole, the rest are dropped with a warning.
OVERFLOW = """\
program print_overflow
  implicit none
  integer :: i, s
  s = 0
!$acc parallel loop reduction(+:s)
  do i = 1, 100000
    print *, 'line', i, 'of a kernel that prints more than the log holds'
    s = s + 1
  end do
  if (s /= 100000) print *, 'FAIL s', s
end program print_overflow
"""


def run(prog, device):
    env = dict(os.environ, ACC_DEVICE_TYPE=device)
    t = time.perf_counter()
    cp = subprocess.run([sys.executable, "-m", "accjit", "run", str(prog)], capture_output=True, text=True, env=env, timeout=300)
    return cp, time.perf_counter() - t


def main():
    rows = []
    ok_all = True
    for name in PROGRAMS:
        prog = CORPUS / name
        cp, secs = run(prog, "nvidia")
        want_file = prog.with_suffix(".stdout")
        why = []
        if cp.returncode != 0:
            why.append(f"exit {cp.returncode}")
        if cp.stderr:
            why.append("stderr: " + cp.stderr.strip().splitlines()[0][:150])
        if "FAIL" in cp.stdout:
            why.append("FAIL line: " + next(x for x in cp.stdout.splitlines() if "FAIL" in x)[:120])
        if want_file.exists():
            if cp.stdout != want_file.read_text():
                why.append("stdout differs from .stdout: " + repr(cp.stdout[:300]))
            how = "exact bytes"
        else:
            ref, _ = run(prog, "multicore")
            if sorted(cp.stdout.splitlines()) != sorted(ref.stdout.splitlines()):
                diff = sorted(set(cp.stdout.splitlines()) ^ set(ref.stdout.splitlines()))[:4]
                why.append(f"lines differ from multicore's as a set ({len(cp.stdout.splitlines())} vs {len(ref.stdout.splitlines())}): {diff}")
            how = "set == multicore"
        ok = not why
        ok_all &= ok
        rows.append((name, how, f"{len(cp.stdout.splitlines())} lines", f"{secs:.2f} s", "ok" if ok else "WRONG: " + "; ".join(why)))
        if not ok:
            print(f"--- {name} stdout (head) ---\n{cp.stdout[:1500]}\n--- stderr ---\n{cp.stderr[-2000:]}")
    with tempfile.TemporaryDirectory() as d:
        prog = Path(d) / "print_overflow.f90"
        prog.write_text(OVERFLOW)
        cp, secs = run(prog, "nvidia")
        lines = cp.stdout.splitlines()
        whole = all(x.startswith(" line") and x.endswith("holds") for x in lines)
        warned = "statements of device code lost" in cp.stderr and f"({len(lines)} printed)" in cp.stderr
        distinct = len(set(lines)) == len(lines)
        ok = cp.returncode == 0 and warned and whole and distinct and 10000 < len(lines) < 100000 and "FAIL" not in cp.stdout
        ok_all &= ok
        rows.append(("overflow (100000 prints)", "warning, whole lines", f"{len(lines)} lines", f"{secs:.2f} s",
                     "ok" if ok else f"WRONG: exit {cp.returncode}, warned {warned}, whole {whole}, distinct {distinct}, stderr {cp.stderr[-300:]!r}"))
    print("\n== Fortran print in device code on nvidia")
    print(f"{'program':34} {'check':22} {'output':12} {'time':8} result")
    for r in rows:
        print(f"{r[0]:34} {r[1]:22} {r[2]:12} {r[3]:8} {r[4]}")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
