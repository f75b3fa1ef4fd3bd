"""The OpenACC conformance corpus (tests/conformance/), run through `accjit run`.

Every program under tests/conformance/{core,data,gaps,errors}/ (C) and
tests/conformance/fortran/ (Fortran: `*.f90 *.F90 *.f *.F` there and in fortran/errors/,
plus multi-file programs, one folder each, under fortran/multi/) is run once per device
type (`ACC_DEVICE_TYPE`), as `python -m accjit run PROG.c` (a multi-file program:
`python -m accjit run main.F90 other.F90 ...`, the file holding the `program` first, in
its folder), with a 60 s limit. The first line of a program states what must happen
(README.md there); Fortran writes `!` where C writes `//`:

    (no marker)                              exit 0 and nothing on stderr
    // expect: fail "substring"              non-zero exit, substring in stderr
    // expect: compile-error "substring" L:C non-zero exit, substring and `NAME.c:L:C` in stderr
    // expect: discrete                      needs a discrete-memory device: skipped on
                                             shared-memory devices (multicore, host)
    ! expect: exit N                         exit status N (`stop N`, `call exit(N)`); stderr
                                             is not checked (gfortran prints `STOP N` there)

A multi/ folder's main file may hold a `! run-files: main.f90` line: only the files it names are
given to `accjit run` (the modules the program uses must then be found beside the main file).
A Fortran program with a `NNN_name.stdout` file beside it (`expected.stdout` in a multi/
folder) must print exactly those bytes (gfortran's output, checked by gfortran_check.py).
A Fortran program's `! stdin: TEXT` header lines (within its first 2000 characters) are
fed to it as standard input, one line each (for `read(*,*)`); other programs get an empty stdin.

Substrings are matched case-insensitively. The runs are started together on a
thread pool (one worker per CPU; `ACCJIT_CONFORMANCE_JOBS` overrides) the first
time a program test executes, for exactly the tests pytest selected, so `-k`
selections stay cheap and plain pytest (no xdist) finishes quickly.

Environment:
    ACCJIT_CONFORMANCE_DEVICES   comma list of device types (default "multicore,host")
    ACCJIT_CONFORMANCE_REQUIRE=1 fail instead of skip when `python -m accjit` is unavailable
    ACCJIT_CONFORMANCE_GCC=1     also validate the corpus with gcc (gcc_check.py)
    ACCJIT_CONFORMANCE_GFORTRAN=1  also validate fortran/ with gfortran (gfortran_check.py)
    ACCJIT_CONFORMANCE_DISCRETE_HOST  1/0: run (or not) the Fortran programs once more on
                                 `discrete-host` (below); by default they run there unless
                                 ACCJIT_CONFORMANCE_DEVICES is given
    ACCJIT_RESULTS_JSON=PATH     write each program's outcome per device (pass, fail, xfail,
                                 skip) as JSON when the session ends; a `{device}` in PATH
                                 gives one file per device (scripts/support_matrix.py reads them)

`discrete-host` is the host device with discrete memory (`ACC_DEVICE_TYPE=host` and
`ACCJIT_DISCRETE_HOST=1`: every device copy in a separate junk-filled block, transfers as the
clauses say). The Fortran programs (not fortran/errors/) run on it too, so that what only a
discrete device shows — a kernel reaching a variable through another variable's mapping, a value
that never comes back — fails here, without a GPU. `expect: discrete` programs run there.

The structure tests at the end (counts, names, markers, headers) need neither
accjit nor gcc.
"""

import concurrent.futures
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional, Tuple

import pytest

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "conformance"
REPO = HERE.parent
PARTS = ("core", "data", "gaps", "errors")
MINIMUM = {"core": 160, "data": 130, "gaps": 100, "errors": 50}
FORTRAN = CORPUS / "fortran"
FORTRAN_SUFFIXES = (".f90", ".F90", ".f", ".F")
# fortran/: single-file programs and multi/ folders together; fortran/errors/ apart
FORTRAN_MINIMUM = {"fortran": 150, "fortran/errors": 8}
SHARED_MEMORY_DEVICES = {"multicore", "host"}
DISCRETE_HOST = "discrete-host"
TIMEOUT_S = 60
ALLOWED_HEADERS = {
    "stdio.h", "stdlib.h", "math.h", "time.h", "string.h", "limits.h", "float.h",
    "complex.h", "stdbool.h", "stddef.h", "stdint.h", "openacc.h", "assert.h",
    # issue 8: headers of whole numerical programs (declarations bound to libc at JIT time)
    "sys/resource.h", "sched.h", "sys/types.h", "sys/stat.h", "fcntl.h", "signal.h",
    "setjmp.h", "stdalign.h", "stdnoreturn.h", "iso646.h", "wchar.h", "locale.h", "omp.h",
    "stdarg.h", "unistd.h", "sys/time.h", "ctype.h", "errno.h", "inttypes.h", "tgmath.h",
}

EXPECT_RE = re.compile(
    r'^(?://|!)\s*expect:\s*(?P<kind>fail|discrete|compile-error)\b'
    r'(?:\s+"(?P<sub>[^"]*)")?(?:\s+(?P<line>\d+):(?P<col>\d+))?\s*$'
)
EXIT_RE = re.compile(r'^(?://|!)\s*expect:\s*exit\s+(?P<code>\d+)\s*$')
NAME_RE = re.compile(r"^(?P<num>\d{3})_[a-z0-9_]+\.c$")
FNAME_RE = re.compile(r"^(?P<num>\d{3})_[a-z0-9_]+\.(?:f90|F90|f|F)$")


@dataclass(frozen=True)
class Expectation:
    kind: str                      # "pass" | "fail" | "compile-error" | "discrete" | "exit"
    substring: Optional[str] = None
    line: Optional[int] = None
    col: Optional[int] = None
    code: Optional[int] = None     # "exit": the expected exit status


def parse_expectation(text: str) -> Expectation:
    first = text.split("\n", 1)[0].rstrip()
    m = EXIT_RE.match(first)
    if m:
        return Expectation("exit", code=int(m.group("code")))
    m = EXPECT_RE.match(first)
    if not m:
        return Expectation("pass")
    line = int(m.group("line")) if m.group("line") else None
    col = int(m.group("col")) if m.group("col") else None
    return Expectation(m.group("kind"), m.group("sub"), line, col)


def is_fortran_source(p: Path) -> bool:
    return p.is_file() and p.suffix in FORTRAN_SUFFIXES


def multi_files(d: Path):
    """The files of a multi-file Fortran program, the one holding `program` first."""
    files = sorted(p for p in d.iterdir() if is_fortran_source(p))
    prog_re = re.compile(r"^\s*program\s+\w", re.I | re.M)
    mains = [p for p in files if prog_re.search(p.read_text(errors="replace"))]
    return mains[:1] + [p for p in files if p not in mains[:1]]


def main_file(prog: Path) -> Path:
    """The file whose first line holds the expectation (the program itself, or a folder's main)."""
    return multi_files(prog)[0] if prog.is_dir() else prog


def discover():
    progs = []
    for part in PARTS:
        d = CORPUS / part
        if d.is_dir():
            progs += sorted(p for p in d.iterdir() if p.suffix == ".c")
    for d in (FORTRAN, FORTRAN / "errors"):
        if d.is_dir():
            progs += sorted(p for p in d.iterdir() if is_fortran_source(p))
    if (FORTRAN / "multi").is_dir():
        progs += sorted(p for p in (FORTRAN / "multi").iterdir() if p.is_dir())
    return progs


def part_of(p: Path) -> str:
    """core, data, gaps, errors, fortran or fortran/errors (multi/ folders count as fortran)."""
    r = p.relative_to(CORPUS).parts
    if r[0] != "fortran":
        return r[0]
    return "fortran/errors" if r[1] == "errors" else "fortran"


def devices():
    raw = os.environ.get("ACCJIT_CONFORMANCE_DEVICES", "multicore,host")
    return [d.strip() for d in raw.split(",") if d.strip()]


PROGRAMS = discover()


def rel(p: Path) -> str:
    return str(p.relative_to(CORPUS))


def discrete_host_pass() -> bool:
    flag = os.environ.get("ACCJIT_CONFORMANCE_DISCRETE_HOST")
    if flag is not None:
        return flag == "1"
    return "ACCJIT_CONFORMANCE_DEVICES" not in os.environ


def child_env(device: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["ACC_DEVICE_TYPE"] = device
    env.pop("ACCJIT_DISCRETE_HOST", None)
    if device == DISCRETE_HOST:
        env["ACC_DEVICE_TYPE"] = "host"
        env["ACCJIT_DISCRETE_HOST"] = "1"
    # Let a source checkout (python/accjit with a built _core) work without installing;
    # an installed accjit earlier on the path still wins.
    extra = str(REPO / "python")
    env["PYTHONPATH"] = os.pathsep.join(x for x in (env.get("PYTHONPATH"), extra) if x)
    return env


_CLI_OK: Optional[Tuple[bool, str]] = None


def accjit_cli_available() -> Tuple[bool, str]:
    global _CLI_OK
    if _CLI_OK is None:
        probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('accjit.__main__') is None)"
        try:
            cp = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                timeout=60, env=child_env("multicore"))
            _CLI_OK = (cp.returncode == 0, (cp.stderr or "").strip()[-500:])
        except (OSError, subprocess.TimeoutExpired) as e:
            _CLI_OK = (False, str(e))
    return _CLI_OK


@dataclass
class RunResult:
    returncode: Optional[int]      # None: timed out
    stdout: str
    stderr: str


STDIN_RE = re.compile(r"^!\s*stdin:(.*)$", re.M)


def program_stdin(text: str) -> str:
    """What a Fortran program reads: its `! stdin: ...` header lines, one input line each."""
    return "".join(m.group(1).strip() + "\n" for m in STDIN_RE.finditer(text[:2000]))


def expected_stdout_path(prog: Path) -> Path:
    """A Fortran program's expected output: NNN_name.stdout beside it (multi/: expected.stdout)."""
    return prog / "expected.stdout" if prog.is_dir() else prog.with_suffix(".stdout")


def expected_stdout(prog: Path) -> Optional[str]:
    p = expected_stdout_path(prog)
    return p.read_text() if part_of(prog).startswith("fortran") and p.is_file() else None


RUN_FILES_RE = re.compile(r"^!\s*run-files:(.*)$", re.M)


def command_files(path: Path):
    """The files named on the command line: a single file; a multi/ folder's files (main first), or
    only those its main file lists in a `! run-files: a.f90 ...` header line (the rest must be
    found beside the main file by the modules they define)."""
    if not path.is_dir():
        return [path]
    m = RUN_FILES_RE.search(main_file(path).read_text(errors="replace")[:2000])
    return [path / f for f in m.group(1).split()] if m else multi_files(path)


def run_program(path: Path, device: str) -> RunResult:
    files = [str(p) for p in command_files(path)]
    cwd = str(path if path.is_dir() else path.parent)
    stdin = program_stdin(main_file(path).read_text(errors="replace"))
    try:
        cp = subprocess.run([sys.executable, "-m", "accjit", "run", *files], capture_output=True,
                            text=True, timeout=TIMEOUT_S, env=child_env(device), cwd=cwd, input=stdin)
        return RunResult(cp.returncode, cp.stdout, cp.stderr)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return RunResult(None, out, err)


class _Batch:
    """Runs every selected (program, device) pair once, concurrently, on first use."""

    def __init__(self, session):
        self.session = session
        self.results: Dict[Tuple[str, str], RunResult] = {}
        self.started = False

    def _selected(self):
        pairs = []
        for item in self.session.items:
            cs = getattr(item, "callspec", None)
            if cs is None or item.originalname not in ("test_program", "test_fortran_discrete_host"):
                continue
            path, device = cs.params["prog"], cs.params.get("device", DISCRETE_HOST)
            exp = parse_expectation(main_file(path).read_text(errors="replace"))
            if exp.kind == "discrete" and device in SHARED_MEMORY_DEVICES:
                continue
            pairs.append((path, device))
        return pairs

    def get(self, path: Path, device: str) -> RunResult:
        key = (str(path), device)
        if not self.started:
            self.started = True
            jobs = int(os.environ.get("ACCJIT_CONFORMANCE_JOBS", "0")) or (os.cpu_count() or 2)
            pairs = self._selected()
            with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
                futs = {ex.submit(run_program, p, d): (str(p), d) for p, d in pairs}
                for f in concurrent.futures.as_completed(futs):
                    self.results[futs[f]] = f.result()
        if key not in self.results:
            self.results[key] = run_program(path, device)
        return self.results[key]


@pytest.fixture(scope="session")
def batch(request):
    return _Batch(request.session)


def describe(res: RunResult) -> str:
    rc = "timeout" if res.returncode is None else f"exit {res.returncode}"
    return f"{rc}\n--- stdout (tail) ---\n{res.stdout[-3000:]}\n--- stderr (tail) ---\n{res.stderr[-3000:]}"


# Fortran programs that fail today because of a known gap or bug of the Fortran front end or its
# runtime, each with its entry in the session's FBUGS list (owner: what fails). They run as usual
# but are marked xfail(strict=False): a fix shows up as XPASS, and the entry should then go.
# (State of main at 16:03 UTC; /work/wt/FBUGS.md has each with its smallest reproducer.)
FORTRAN_KNOWN_FAILURES: Dict[str, str] = {}


class _Results:
    """Per-program outcomes of this session, by device, written as JSON at the end of the session
    when ACCJIT_RESULTS_JSON names a file (the support matrix of the docs is generated from them)."""

    def __init__(self, path: str):
        self.path = path
        self.by_device: Dict[str, Dict[str, dict]] = {}

    def record(self, prog: Path, device: str, outcome: str, why: str = ""):
        entry = {"outcome": outcome}
        lines = why.strip().splitlines()
        if lines:
            # the failed check's headline, and the first line the program wrote to stderr (or
            # else the first FAIL line of its stdout)
            def section(title):
                if title not in lines:
                    return []
                rest = lines[lines.index(title) + 1:]
                return rest[:next((k for k, x in enumerate(rest) if x.startswith("--- ")), len(rest))]
            detail = next((x.strip() for x in section("--- stderr (tail) ---") if x.strip()), "") or \
                next((x.strip() for x in section("--- stdout (tail) ---") if "FAIL" in x), "")
            status = lines[1] if len(lines) > 1 and re.match(r"(exit -?\d+|timeout)$", lines[1]) else ""
            entry["why"] = (lines[0] + (f" ({status})" if status else "") + (f" — {detail}" if detail else ""))[:300]
        self.by_device.setdefault(device, {})[rel(prog)] = entry

    def write(self):
        import json
        files: Dict[str, Dict[str, Dict[str, dict]]] = {}
        for device, progs in self.by_device.items():
            files.setdefault(self.path.replace("{device}", device), {})[device] = progs
        for path, devs in files.items():
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            doc = {"format": 1, "devices": {
                d: {"outcomes": {name: e["outcome"] for name, e in sorted(progs.items())},
                    "why": {name: e["why"] for name, e in sorted(progs.items()) if "why" in e}}
                for d, progs in sorted(devs.items())}}
            Path(path).write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


@pytest.fixture(scope="session")
def results():
    path = os.environ.get("ACCJIT_RESULTS_JSON")
    rec = _Results(path) if path else None
    yield rec
    if rec is not None:
        rec.write()


@pytest.mark.parametrize("device", devices())
@pytest.mark.parametrize("prog", PROGRAMS, ids=[rel(p) for p in PROGRAMS])
def test_program(prog: Path, device: str, batch, request, results):
    run_and_record(prog, device, batch, request, results)


F_DISCRETE_PROGRAMS = [p for p in PROGRAMS if part_of(p) == "fortran"]


@pytest.mark.skipif(not discrete_host_pass(), reason="the discrete-host pass is off (ACCJIT_CONFORMANCE_DISCRETE_HOST "
                    "or ACCJIT_CONFORMANCE_DEVICES without it)")
@pytest.mark.parametrize("prog", F_DISCRETE_PROGRAMS, ids=[rel(p) for p in F_DISCRETE_PROGRAMS])
def test_fortran_discrete_host(prog: Path, batch, request, results):
    run_and_record(prog, DISCRETE_HOST, batch, request, results)


def run_and_record(prog: Path, device: str, batch, request, results):
    known = FORTRAN_KNOWN_FAILURES.get(rel(prog))
    if known:
        request.applymarker(pytest.mark.xfail(reason=f"known Fortran front-end gap: {known}", strict=False))
    if results is None:
        return check_program(prog, device, batch)
    try:
        check_program(prog, device, batch)
    except pytest.skip.Exception as e:
        results.record(prog, device, "skip", str(e))
        raise
    except BaseException as e:
        results.record(prog, device, "xfail" if known else "fail", f"known gap: {known}" if known else str(e))
        raise
    results.record(prog, device, "pass")


def check_program(prog: Path, device: str, batch):
    exp = parse_expectation(main_file(prog).read_text(errors="replace"))
    if exp.kind == "discrete" and device in SHARED_MEMORY_DEVICES:
        pytest.skip(f"observes separate device memory; {device} shares memory with the host")
    ok, why = accjit_cli_available()
    if not ok:
        msg = f"`python -m accjit` is not available: {why}"
        if os.environ.get("ACCJIT_CONFORMANCE_REQUIRE") == "1":
            pytest.fail(msg)
        pytest.skip(msg)
    res = batch.get(prog, device)
    assert res.returncode is not None, f"{rel(prog)} on {device}: timed out after {TIMEOUT_S} s\n" + describe(res)
    if exp.kind in ("pass", "discrete"):
        assert res.returncode == 0, f"{rel(prog)} on {device}: expected success\n" + describe(res)
        assert res.stderr == "", f"{rel(prog)} on {device}: stderr must be empty\n" + describe(res)
        want = expected_stdout(prog)
        if want is not None:
            assert res.stdout == want, (f"{rel(prog)} on {device}: stdout differs from "
                                        f"{expected_stdout_path(prog).name}\n--- want ---\n{want}" + describe(res))
    elif exp.kind == "exit":
        assert res.returncode == exp.code, f"{rel(prog)} on {device}: expected exit {exp.code}\n" + describe(res)
    elif exp.kind == "fail":
        assert res.returncode != 0, f"{rel(prog)} on {device}: expected a runtime failure\n" + describe(res)
        if exp.substring:
            assert exp.substring.lower() in res.stderr.lower(), (
                f"{rel(prog)} on {device}: stderr lacks {exp.substring!r}\n" + describe(res))
    else:
        assert res.returncode != 0, f"{rel(prog)} on {device}: expected a compile error\n" + describe(res)
        if exp.substring:
            assert exp.substring.lower() in res.stderr.lower(), (
                f"{rel(prog)} on {device}: stderr lacks {exp.substring!r}\n" + describe(res))
        where = f"{main_file(prog).name}:{exp.line}:{exp.col}"
        assert where in res.stderr, f"{rel(prog)} on {device}: stderr lacks position {where}\n" + describe(res)


# ---------------------------------------------------------------------------
# Structure of the corpus itself (no accjit needed).

C_PROGRAMS = [p for p in PROGRAMS if p.suffix == ".c"]
F_PROGRAMS = [p for p in PROGRAMS if part_of(p).startswith("fortran")]


def test_corpus_counts():
    for part, minimum in MINIMUM.items():
        n = len([p for p in C_PROGRAMS if p.parent.name == part])
        assert n >= minimum, f"{part}/ has {n} programs, want at least {minimum}"


def test_corpus_names_unique_and_well_formed():
    for part in PARTS:
        seen = {}
        for p in (x for x in C_PROGRAMS if x.parent.name == part):
            m = NAME_RE.match(p.name)
            assert m, f"{rel(p)}: name must look like NNN_lower_case.c"
            num = m.group("num")
            assert num not in seen, f"{rel(p)} and {seen[num]} share number {num}"
            seen[num] = rel(p)


def test_corpus_expectations_match_parts():
    for p in C_PROGRAMS:
        text = p.read_text(errors="replace")
        first = text.split("\n", 1)[0]
        exp = parse_expectation(text)
        if "expect:" in first:
            assert exp.kind != "pass", f"{rel(p)}: malformed expectation line {first!r}"
        if p.parent.name == "errors":
            assert exp.kind == "compile-error", f"{rel(p)}: errors/ programs must expect a compile error"
            assert exp.substring and exp.line and exp.col, f"{rel(p)}: compile-error needs \"substring\" LINE:COL"
            nlines = text.count("\n") + 1
            assert 1 <= exp.line <= nlines, f"{rel(p)}: expected line {exp.line} is outside the file"
        else:
            assert exp.kind != "compile-error", f"{rel(p)}: compile errors belong in errors/"
            if exp.kind == "fail":
                assert exp.substring, f"{rel(p)}: expect: fail needs a \"substring\""
        if p.parent.name == "core":
            assert exp.kind == "pass", f"{rel(p)}: core/ programs must pass"


def test_corpus_uses_only_bundled_headers():
    inc = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)
    for p in C_PROGRAMS:
        if p.parent.name == "errors":
            continue        # some error programs include a missing header on purpose
        for h in inc.findall(p.read_text(errors="replace")):
            assert h in ALLOWED_HEADERS, f"{rel(p)} includes <{h}>, which accjit does not bundle"


def test_corpus_programs_have_main_and_checks():
    for p in C_PROGRAMS:
        if p.parent.name == "errors":
            continue
        text = p.read_text(errors="replace")
        assert re.search(r"\bint\s+main\s*\(", text), f"{rel(p)}: no main()"
        if parse_expectation(text).kind in ("pass", "discrete"):
            assert "FAIL" in text or "return 1" in text or "exit(1)" in text or "failcode" in text, (
                f"{rel(p)}: a passing program must be able to report a failed check")


def test_fortran_corpus_counts():
    for part, minimum in FORTRAN_MINIMUM.items():
        n = len([p for p in F_PROGRAMS if part_of(p) == part])
        assert n >= minimum, f"{part}/ has {n} programs, want at least {minimum}"
    assert any(p.is_dir() for p in F_PROGRAMS), "fortran/multi/ has no multi-file program"


def test_fortran_corpus_names_unique_and_well_formed():
    # numbers are unique across fortran/ and fortran/multi/; fortran/errors/ counts apart
    seen = {}
    for p in F_PROGRAMS:
        m = FNAME_RE.match(p.name) if p.is_file() else re.match(r"^(?P<num>\d{3})_[a-z0-9_]+$", p.name)
        assert m, f"{rel(p)}: name must look like NNN_lower_case.f90 (.F90 .f .F; a multi/ folder NNN_lower_case)"
        key = (part_of(p), m.group("num"))
        assert key not in seen, f"{rel(p)} and {seen[key]} share number {key[1]}"
        seen[key] = rel(p)
        if p.is_dir():
            files = multi_files(p)
            assert len(files) >= 2, f"{rel(p)}: a multi-file program needs at least two source files"
            assert all(f.is_file() for f in command_files(p)), f"{rel(p)}: run-files names a missing file"


def test_fortran_corpus_expectations_match_parts():
    for p in F_PROGRAMS:
        text = main_file(p).read_text(errors="replace")
        first = text.split("\n", 1)[0]
        assert first.startswith("!"), f"{rel(p)}: the first line must be a `!` comment (expectation or description)"
        exp = parse_expectation(text)
        if "expect:" in first:
            assert exp.kind != "pass", f"{rel(p)}: malformed expectation line {first!r}"
        if part_of(p) == "fortran/errors":
            assert exp.kind == "compile-error", f"{rel(p)}: errors/ programs must expect a compile error"
            assert exp.substring and exp.line and exp.col, f"{rel(p)}: compile-error needs \"substring\" LINE:COL"
            assert 1 <= exp.line <= text.count("\n") + 1, f"{rel(p)}: expected line {exp.line} is outside the file"
        else:
            assert exp.kind != "compile-error", f"{rel(p)}: compile errors belong in fortran/errors/"
            if exp.kind == "fail":
                assert exp.substring, f"{rel(p)}: expect: fail needs a \"substring\""


def test_fortran_corpus_stdout_files_belong_to_programs():
    for f in FORTRAN.rglob("*.stdout"):
        owner = f.parent if f.name == "expected.stdout" else None
        if owner is None:
            owner = next((f.with_suffix(x) for x in FORTRAN_SUFFIXES if f.with_suffix(x).is_file()), None)
        assert owner is not None and owner in F_PROGRAMS, f"{f.relative_to(CORPUS)} belongs to no program"


def test_fortran_known_failures_name_programs():
    names = {rel(p) for p in F_PROGRAMS}
    for name, why in FORTRAN_KNOWN_FAILURES.items():
        assert name in names, f"FORTRAN_KNOWN_FAILURES names {name}, which is not a Fortran program"
        assert why.strip(), f"FORTRAN_KNOWN_FAILURES[{name!r}] needs the reason"


def test_fortran_corpus_includes_exist():
    # `#include "x"` (preprocessed forms) and Fortran `include 'x'` name files beside the program
    inc = re.compile(r"""^\s*(?:#\s*include|include)\s*["']([^"']+)["']""", re.M | re.I)
    for p in F_PROGRAMS:
        if part_of(p) == "fortran/errors":
            continue        # an error program may include a missing file on purpose
        files = multi_files(p) if p.is_dir() else [p]
        for f in files:
            for name in inc.findall(f.read_text(errors="replace")):
                assert (f.parent / name).is_file(), f"{rel(f)} includes {name!r}, which is not beside it"


def test_fortran_corpus_programs_have_program_and_checks():
    for p in F_PROGRAMS:
        if part_of(p) == "fortran/errors":
            continue
        text = "\n".join(f.read_text(errors="replace") for f in (multi_files(p) if p.is_dir() else [p]))
        assert re.search(r"^\s*program\s+\w", text, re.I | re.M), f"{rel(p)}: no `program`"
        if parse_expectation(main_file(p).read_text(errors="replace")).kind in ("pass", "discrete"):
            assert "FAIL" in text, f"{rel(p)}: a passing program must be able to report a failed check (FAIL)"


@pytest.mark.skipif(os.environ.get("ACCJIT_CONFORMANCE_GFORTRAN") != "1",
                    reason="set ACCJIT_CONFORMANCE_GFORTRAN=1 to validate the Fortran corpus with gfortran")
def test_fortran_corpus_validates_with_gfortran():
    cp = subprocess.run([sys.executable, str(CORPUS / "gfortran_check.py")], capture_output=True, text=True,
                        timeout=1800)
    assert cp.returncode == 0, cp.stdout[-5000:] + cp.stderr[-2000:]


@pytest.mark.skipif(os.environ.get("ACCJIT_CONFORMANCE_GCC") != "1", reason="set ACCJIT_CONFORMANCE_GCC=1 to validate with gcc")
def test_corpus_validates_with_gcc():
    cp = subprocess.run([sys.executable, str(CORPUS / "gcc_check.py")], capture_output=True, text=True, timeout=1800)
    assert cp.returncode == 0, cp.stdout[-5000:] + cp.stderr[-2000:]
