#!/usr/bin/env python3
"""Validate the Fortran conformance programs with gfortran's OpenACC (libgomp host fallback).

    python3 tests/conformance/gfortran_check.py [FILE_OR_DIR ...]   (default: fortran/)

Covers fortran/*.{f90,F90,f,F}, fortran/errors/ and the multi-file folders of
fortran/multi/. Each program is compiled with `gfortran -fopenacc -O1`, with `-cpp`
for .F90/.F and `-nocpp` for .f90/.f (accjit preprocesses by extension too, so a
`#ifdef` in a .f90 file is a mistake gfortran must show), `-ffixed-form -Wline-truncation` for .f/.F,
`-DACCJIT_GFORTRAN_VALIDATION` for the preprocessed ones (a few presence checks
differ on gfortran's shared-memory host fallback, which reports every address present),
`-I` the program's folder (INCLUDE and #include files sit beside the program), and
`-Werror` is not used but any compiler output counts as a warning and fails a program
that must pass. Then, per the first-line expectation (README.md):

  pass            exit 0, empty stderr, under 0.2 s (slow runs are reported)
  exit N          exit status N (stderr not checked: gfortran prints `STOP N`)
  fail / discrete compile cleanly; the run is only reported (gfortran's shared-memory
                  host fallback need not fail)
  compile-error   gfortran must reject it too, unless the file says `! gfortran: accepts`

A `NNN_name.stdout` file beside a program (`expected.stdout` in a multi/ folder) is the
exact output it must print (the harness holds accjit to the same bytes).
`! stdin: TEXT` header lines are the program's standard input (one line each), as in
tests/test_conformance.py. A multi-file program's files are compiled together, modules
in the order of their `use`s, the file holding `program` last.

Known gfortran 12 gaps are stated in the program's header comment and reported as
`gap` instead of a failure (a clean pass despite the phrase is reported too, so a
stale claim shows up): `gfortran lacks` (gfortran rejects it, ends in an internal
compiler error or miscompiles it) and `gfortran is wrong` (it compiles but the run
fails). `! gfortran-flags: ...` adds options for one program.
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FORTRAN = os.path.join(HERE, "fortran")
SUFFIXES = (".f90", ".F90", ".f", ".F")
EXPECT_RE = re.compile(r'^!\s*expect:\s*(fail|discrete|compile-error)\b(?:\s+"([^"]*)")?(?:\s+(\d+):(\d+))?')
EXIT_RE = re.compile(r'^!\s*expect:\s*exit\s+(\d+)\s*$')
STDIN_RE = re.compile(r"^!\s*stdin:(.*)$", re.M)
GAP_PHRASES = ("gfortran lacks", "gfortran is wrong")


def expectation(text):
    first = text.split("\n", 1)[0].rstrip()
    m = EXIT_RE.match(first)
    if m:
        return ("exit", int(m.group(1)), None)
    m = EXPECT_RE.match(first)
    if not m:
        return ("pass", None, None)
    kind, sub, line, col = m.groups()
    return (kind, sub, (int(line), int(col)) if line else None)


def is_source(path):
    return os.path.isfile(path) and path.endswith(SUFFIXES)


def ordered_files(prog):
    """The files to compile, in order: modules before their users, the program last."""
    if not os.path.isdir(prog):
        return [prog]
    files = sorted(os.path.join(prog, f) for f in os.listdir(prog) if is_source(os.path.join(prog, f)))
    texts = {f: open(f).read() for f in files}
    defines = {f: {m.lower() for m in re.findall(r"^\s*module\s+(?!procedure\b)(\w+)", t, re.I | re.M)}
               for f, t in texts.items()}
    uses = {f: {m.lower() for m in re.findall(r"^\s*use\s*(?:,\s*\w+\s*::)?\s*(\w+)", t, re.I | re.M)}
            for f, t in texts.items()}
    done, order = set(), []

    def visit(f, path=()):
        if f in done or f in path:
            return
        for g in files:
            if g != f and uses[f] & defines[g]:
                visit(g, path + (f,))
        done.add(f)
        order.append(f)

    is_main = lambda f: re.search(r"^\s*program\s+\w", texts[f], re.I | re.M) is not None
    for f in [f for f in files if not is_main(f)] + [f for f in files if is_main(f)]:
        visit(f)
    return order


def main_file(prog):
    if not os.path.isdir(prog):
        return prog
    files = ordered_files(prog)
    mains = [f for f in files if re.search(r"^\s*program\s+\w", open(f).read(), re.I | re.M)]
    return (mains or files)[0]


def flags_for(path):
    # ACCJIT_GFORTRAN_VALIDATION: for the few checks gfortran's shared-memory host fallback
    # cannot make (it reports every address present); accjit keeps a present table everywhere
    f = ["-cpp", "-DACCJIT_GFORTRAN_VALIDATION"] if path.endswith((".F90", ".F")) else ["-nocpp"]
    if path.endswith((".f", ".F")):
        # text past column 72 is silently dropped in fixed form: make that a visible warning
        f += ["-ffixed-form", "-Wline-truncation"]
    return f


def known_gap(text):
    head = text[:2000]
    return next((p for p in GAP_PHRASES if p in head), None)


def check(prog, tmp):
    main = main_file(prog)
    text = open(main).read()
    kind, arg, pos = expectation(text)
    rel = os.path.relpath(prog, HERE)
    work = os.path.join(tmp, rel.replace(os.sep, "__"))
    os.makedirs(work, exist_ok=True)
    exe = os.path.join(work, "a.out")
    extra = [x for m in re.finditer(r"^!\s*gfortran-flags:(.*)$", text, re.M) for x in m.group(1).split()]
    # each file on its own (-cpp and -ffixed-form are per file), modules first, then link
    cp = build(prog, work, exe, extra, ["-fopenacc"])
    gap = known_gap(text)
    if kind == "compile-error":
        if cp.returncode == 0:
            if "! gfortran: accepts" in text:
                return (True, rel, "gfortran accepts (noted in file)")
            return (False, rel, "gfortran ACCEPTS a compile-error program")
        m = re.search(re.escape(os.path.basename(main)) + r":(\d+):(\d+):", cp.stderr)
        if m and pos and int(m.group(1)) != pos[0]:
            return (True, rel, f"gfortran's error at {m.group(1)}:{m.group(2)} (expected {pos[0]}:{pos[1]})")
        return (True, rel, "")
    out = os.path.join(prog, "expected.stdout") if os.path.isdir(prog) else os.path.splitext(prog)[0] + ".stdout"
    want = open(out).read() if os.path.isfile(out) else None
    ok, msg = run_checks(text, kind, arg, cp, exe, work, want)
    if gap:
        if ok:
            return (True, rel, f"gfortran passes although the header says '{gap}'")
        # the program's own logic, with the directives as comments (OpenACC off)
        seq_exe = exe + ".seq"
        seq = build(prog, work, seq_exe, extra, [])
        seq_ok, seq_msg = run_checks(text, kind, arg, seq, seq_exe, work, want)
        logic = "passes without -fopenacc" if seq_ok else "FAILS without -fopenacc too: " + seq_msg[:200]
        lines = msg.strip().splitlines()
        first = next((l.strip() for l in lines if "Error:" in l), lines[0] if lines else "")[:100]
        return (seq_ok, rel, f"gap ({gap}): {first}; {logic}")
    return (ok, rel, msg)


def build(prog, work, exe, extra, acc_flags):
    """Compile each file on its own (-cpp and -ffixed-form are per file), modules first, then link."""
    objs, logs, rc, cmd = [], [], 0, []
    tag = os.path.basename(exe)
    for i, f in enumerate(ordered_files(prog)):
        obj = os.path.join(work, f"{tag}.{i}.o")
        cmd = ["gfortran", *acc_flags, "-O1", "-I", os.path.dirname(f), "-J", work, *flags_for(f), *extra,
               "-c", f, "-o", obj]
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
        objs.append(obj)
        logs.append(r.stderr)
        rc = r.returncode
        if rc != 0:
            break
    if rc == 0:
        r = subprocess.run(["gfortran", *acc_flags, *objs, "-o", exe], capture_output=True, text=True, cwd=work)
        logs.append(r.stderr)
        rc = r.returncode
    return subprocess.CompletedProcess(cmd, rc, "", "".join(logs))


def run_checks(text, kind, arg, cp, exe, work, want_stdout=None):
    if cp.returncode != 0:
        return (False, "compile failed:\n" + cp.stderr[-3000:])
    if cp.stderr.strip() and kind in ("pass", "exit"):
        return (False, "warnings:\n" + cp.stderr[-3000:])
    stdin = "".join(m.group(1).strip() + "\n" for m in STDIN_RE.finditer(text[:2000]))
    t0 = time.time()
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=10, input=stdin, cwd=work)
    except subprocess.TimeoutExpired:
        return (False, "timeout")
    dt = time.time() - t0
    if kind in ("fail", "discrete"):
        return (True, f"(gfortran run: exit {r.returncode})")
    if kind == "exit":
        if r.returncode != arg:
            return (False, f"exit {r.returncode}, expected {arg}\nstdout:\n{r.stdout[-2000:]}\nstderr:\n{r.stderr[-2000:]}")
        return (True, "")
    if r.returncode != 0:
        return (False, f"exit {r.returncode}\nstdout:\n{r.stdout[-2000:]}\nstderr:\n{r.stderr[-2000:]}")
    if r.stderr:
        return (False, "stderr not empty:\n" + r.stderr[-2000:])
    if "FAIL" in r.stdout:
        return (False, "printed FAIL:\n" + r.stdout[-2000:])
    if want_stdout is not None and r.stdout != want_stdout:
        return (False, f"stdout differs from the .stdout file:\n{r.stdout[-2000:]}")
    return (True, f"slow: {dt:.2f}s" if dt > 0.2 else "")


def discover(targets):
    progs = []
    for t in targets:
        t = os.path.abspath(t)
        if os.path.isdir(t) and os.path.basename(os.path.dirname(t)) == "multi":
            progs.append(t)
        elif os.path.isdir(t):
            for name in sorted(os.listdir(t)):
                p = os.path.join(t, name)
                if is_source(p):
                    progs.append(p)
                elif os.path.isdir(p) and name in ("errors", "multi"):
                    progs += discover([p])
                elif os.path.isdir(p) and os.path.basename(t) == "multi":
                    progs.append(p)
        elif is_source(t):
            progs.append(t)
    return progs


def main(argv):
    if subprocess.run(["which", "gfortran"], capture_output=True).returncode != 0:
        print("gfortran not found: skipped")
        return 0
    progs = discover(argv or [FORTRAN])
    bad, gaps = 0, 0
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for ok, rel, msg in ex.map(lambda p: check(p, tmp), progs):
            if not ok:
                bad += 1
                print(f"FAIL {rel}: {msg}")
            elif msg:
                gaps += msg.startswith("gap")
                print(f"ok   {rel}: {msg}")
    print(f"{len(progs) - bad}/{len(progs)} ok ({gaps} known gfortran gaps)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
