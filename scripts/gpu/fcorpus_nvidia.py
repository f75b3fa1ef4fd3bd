"""GPU run of the Fortran conformance corpus (issue 11 "Must show": the programs pass on
nvidia on the lent GPU where that back end runs them). Run on a GPU machine with the accjit
wheel installed (or PYTHONPATH set), from the repository root:

    python scripts/gpu/fcorpus_nvidia.py [DEVICE ...]        (default: nvidia multicore)

Runs every program of tests/conformance/fortran/ (single files, multi/ folders, errors/)
through `python -m accjit run` per device type with the expectations of
tests/test_conformance.py (same parsing, same checks: exit status, empty stderr, the
`.stdout` bytes, compile-error positions; `expect: discrete` only on nvidia), one process
per program, and prints a table last: per device the counts passed / failed, then the
failing programs with the first line of what went wrong. Exit 1 when any program fails.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
try:
    import pytest  # noqa: F401  (test_conformance imports it; only its decorators are used here)
except ImportError:  # a GPU machine without pytest: a stand-in whose decorators do nothing
    import types

    _mark = types.SimpleNamespace(parametrize=lambda *a, **k: (lambda f: f), skipif=lambda *a, **k: (lambda f: f))
    sys.modules["pytest"] = types.SimpleNamespace(mark=_mark, fixture=lambda *a, **k: (lambda f: f))

import test_conformance as tc  # noqa: E402  (the harness: discovery, expectations, runner)


def verdict(prog: Path, device: str) -> tuple[str, str]:
    """('pass'|'fail'|'skip', why) for one program on one device type."""
    exp = tc.parse_expectation(tc.main_file(prog).read_text(errors="replace"))
    if exp.kind == "discrete" and device in tc.SHARED_MEMORY_DEVICES:
        return "skip", "needs discrete memory"
    res = tc.run_program(prog, device)
    if res.returncode is None:
        return "fail", "timed out"
    lines = res.stderr.strip().splitlines()
    err = next((l for l in lines if "error" in l.lower() or "FAIL" in l), lines[-1] if lines else "")[:160]
    if exp.kind in ("pass", "discrete"):
        if res.returncode != 0:
            return "fail", f"exit {res.returncode}: {err or (res.stdout.strip().splitlines() or [''])[-1][:140]}"
        if res.stderr:
            return "fail", f"stderr: {err}"
        want = tc.expected_stdout(prog)
        if want is not None and res.stdout != want:
            return "fail", "stdout differs from the .stdout file"
        return "pass", ""
    if exp.kind == "exit":
        return ("pass", "") if res.returncode == exp.code else ("fail", f"exit {res.returncode}, want {exp.code}: {err}")
    if res.returncode == 0:
        return "fail", "exit 0, want an error"
    if exp.substring and exp.substring.lower() not in res.stderr.lower():
        return "fail", f"stderr lacks {exp.substring!r}: {err}"
    if exp.kind == "compile-error":
        where = f"{tc.main_file(prog).name}:{exp.line}:{exp.col}"
        if where not in res.stderr:
            return "fail", f"stderr lacks {where}: {err}"
    return "pass", ""


def main(argv: list[str]) -> int:
    devices = argv or ["nvidia", "multicore"]
    progs = [p for p in tc.PROGRAMS if tc.part_of(p).startswith("fortran")]
    jobs = int(os.environ.get("ACCJIT_CONFORMANCE_JOBS", "0")) or (os.cpu_count() or 2)
    results: dict[tuple[str, str], tuple[str, str]] = {}
    with cf.ThreadPoolExecutor(jobs) as ex:
        futs = {ex.submit(verdict, p, d): (tc.rel(p), d) for d in devices for p in progs}
        for f in cf.as_completed(futs):
            results[futs[f]] = f.result()
    bad = 0
    print()
    print(f"{'device':<12} {'pass':>5} {'fail':>5} {'skip':>5}   (of {len(progs)} Fortran programs)")
    for d in devices:
        counts = {k: sum(1 for (p, dd), (v, _) in results.items() if dd == d and v == k) for k in ("pass", "fail", "skip")}
        bad += counts["fail"]
        print(f"{d:<12} {counts['pass']:>5} {counts['fail']:>5} {counts['skip']:>5}")
    for (p, d), (v, why) in sorted(results.items()):
        if v == "fail":
            print(f"  FAIL {d:<10} {p}: {why}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
