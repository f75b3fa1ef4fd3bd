#!/usr/bin/env python3
"""Validate conformance programs with gcc 12's OpenACC (libgomp host fallback).

    python3 tests/conformance/gcc_check.py [FILE_OR_DIR ...]   (default: core data gaps errors)

For each program, per its first-line expectation (see README.md):
  pass            compile with `gcc -fopenacc -O1 -Wall` without warnings, run:
                  exit 0, empty stderr, under 0.2 s (slow runs are reported)
  fail / discrete compile without warnings (the run is informational only:
                  gcc's shared-memory host fallback need not fail)
  compile-error   gcc must reject it too, unless the file says `// gcc: accepts`;
                  gcc's first error line is compared with the expected line.

Known gcc 12 gaps, stated in the program's header comment (so the claim is
written where the reader sees it, and checked here):
  `GCC 12 lacks the feature`  gcc may reject the program or miscompile it; that is
                  reported as `gap`, not FAIL (and a clean pass is reported too,
                  so a stale claim shows up)
  `GCC 12 is wrong`           gcc compiles it but its run fails; same reporting
  `// gcc-flags: ...`         extra gcc options for this program (e.g.
                  -Wno-unknown-pragmas where ignored `#pragma omp` lines are the test)

gcc 12 lacks some OpenACC 3.x spellings, so a temporary copy is rewritten
(same line count) before compiling: `readonly:`/`zero:` modifiers and `bind(...)`
are dropped, `self(c)` on compute constructs becomes `if(!(c))`, `device_type`/
`dtype` and everything after it on the directive is dropped, `gang(dim:n)`
becomes `gang` on a routine and on a loop of dimension 1 and `seq` on other
loops, `num_gangs(a, b, c)` becomes
`num_gangs((a)*(b)*(c))`, `collapse(force:n)` is dropped, `async`/`wait` on `data` are dropped, and the `init`, `shutdown` and `set`
directives (ignored by gcc 12) become the equivalent runtime calls, and an `update` naming one
array twice becomes one `_Pragma` per section. gcc_compat.h (force-included) supplies the runtime routines
libgomp 12 lacks, and ACCJIT_GCC_VALIDATION is defined for the few checks whose
outcome differs on gcc's single-gang host fallback.
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECT_RE = re.compile(r'^//\s*expect:\s*(fail|discrete|compile-error)\b(?:\s+"([^"]*)")?(?:\s+(\d+):(\d+))?')
COMPUTE_RE = re.compile(r'^\s*#\s*pragma\s+acc\s+(parallel|kernels|serial)\b')


def expectation(text):
    first = text.split("\n", 1)[0]
    m = EXPECT_RE.match(first)
    if not m:
        return ("pass", None, None)
    kind, sub, line, col = m.groups()
    return (kind, sub, (int(line), int(col)) if line else None)


DEVTYPES = {"host": "acc_device_host", "multicore": "acc_device_host", "nvidia": "acc_device_nvidia",
            "radeon": "acc_device_radeon", "default": "acc_device_default", "*": "acc_device_default"}


def clause_arg(line, name):
    m = re.search(r'\b' + name + r'\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)', line)
    return m.group(1).strip() if m else None


def exec_directive(line):
    """gcc 12 ignores init/shutdown/set: turn them into the equivalent runtime calls."""
    m = re.match(r'^(\s*)#\s*pragma\s+acc\s+(init|shutdown|set)\b(.*)$', line)
    if not m:
        return None
    indent, kind, rest = m.groups()
    dt = clause_arg(rest, "device_type") or clause_arg(rest, "dtype")
    dev = None
    if dt:
        # A list selects its first available type (accjit: docs/data-environment.md); gcc's
        # host fallback serves host/multicore/default/*, so take the first of those, else
        # the first name (an unavailable type, which fails on gcc too).
        names = [n.strip().lower() for n in dt.split(",")]
        usable = [n for n in names if n in ("host", "multicore", "default", "*")]
        dev = DEVTYPES.get((usable or names)[0], "acc_device_default")
    num, cond = clause_arg(rest, "device_num"), clause_arg(rest, "if")
    calls = []
    if kind in ("init", "shutdown"):
        # gcc_compat.h's wrappers tolerate an init of an active device and a shutdown of one
        # that is down (libgomp 12 aborts on both; accjit and the spec allow them).
        t = dev or "acc_get_device_type()"
        calls.append(f"gcc_compat_{kind}_directive({t});")
    else:
        if dev:
            calls.append(f"acc_set_device_type({dev});")
        if num is not None:
            calls.append(f"acc_set_device_num({num}, {dev or 'acc_get_device_type()'});")
        da = clause_arg(rest, "default_async")
        if da is not None:
            calls.append(f"acc_set_default_async({da});")
    body = " ".join(calls)
    return f"{indent}{{ if ({cond}) {{ {body} }} }}" if cond else f"{indent}{{ {body} }}"


def split_top(text, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def clauses(text):
    """[(name, args-or-None)] of a directive's clause text."""
    out, i = [], 0
    while i < len(text):
        m = re.match(r'[\s,]*([A-Za-z_]\w*)\s*', text[i:])
        if not m:
            break
        name, i = m.group(1), i + m.end()
        args = None
        if i < len(text) and text[i] == "(":
            depth, j = 0, i
            while j < len(text):
                depth += text[j] == "("
                depth -= text[j] == ")"
                if depth == 0:
                    break
                j += 1
            args, i = text[i + 1:j], j + 1
        out.append((name, args))
    return out


def split_update(line):
    """gcc 12 rejects one array named twice in an update; emit one _Pragma per section."""
    m = re.match(r'^(\s*)#\s*pragma\s+acc\s+update\b(.*)$', line)
    if not m:
        return None
    indent, rest = m.groups()
    cl = clauses(rest)
    moves = [(n, a) for n, a in cl if n in ("self", "host", "device") and a is not None]
    other = " ".join(n + (f"({a})" if a is not None else "") for n, a in cl if (n, a) not in moves)
    items = [(n, x) for n, a in moves for x in split_top(a)]
    bases = [re.match(r'\s*([A-Za-z_][\w.]*)', x).group(1) for _, x in items]
    if len(set(bases)) == len(bases):
        return None
    return indent + " ".join(f'_Pragma("acc update {n}({x}) {other}")' for n, x in items)


def rewrite_line(line):
    if not re.match(r'^\s*#\s*pragma\s+acc\b', line) and '_Pragma("acc' not in line:
        return line
    ex = exec_directive(line)
    if ex is not None:
        return ex
    up = split_update(line)
    if up is not None:
        return up
    if re.match(r'^\s*#\s*pragma\s+acc\s+data\b', line):
        line = re.sub(r'\b(async|wait)\s*(\([^()]*\))?', '', line)
    line = re.sub(r'\b(readonly|zero)\s*:', '', line)
    line = re.sub(r'\bbind\s*\([^)]*\)', '', line)
    # 3.3 multi-dimensional gangs: a routine keeps plain `gang`; on a loop
    # gang(dim:1) becomes `gang` and gang(dim:2|3) `seq` (gcc's host fallback
    # runs one gang, so the outer dimensions are sequential there anyway),
    # which keeps nested gang(dim:) loops valid; num_gangs(a, b, c) launches
    # a*b*c gangs.
    if re.match(r'^\s*#\s*pragma\s+acc\s+routine\b', line):
        line = re.sub(r'\bgang\s*\(\s*dim\s*:\s*\d+\s*\)', 'gang', line)
    else:
        line = re.sub(r'\bgang\s*\(\s*dim\s*:\s*1\s*\)', 'gang', line)
        line = re.sub(r'\bgang\s*\(\s*dim\s*:\s*\d+\s*\)', 'seq', line)
    line = re.sub(r'\bnum_gangs\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)',
                  lambda m: 'num_gangs(' + '*'.join(f'({a.strip()})' for a in split_top(m.group(1))) + ')', line)
    # collapse(force:n) (3.3) over loops that are not tightly nested: gcc 12
    # has no forced collapse, so only the outer loop is associated there.
    line = re.sub(r'\bcollapse\s*\(\s*force\s*:\s*\d+\s*\)', '', line)
    line = re.sub(r'\b(device_type|dtype)\s*\(.*$', '', line)
    if COMPUTE_RE.match(line):
        line = re.sub(r'\bself\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)', r'if(!(\1))', line)
        line = re.sub(r'\bself\b(?!\s*\()', 'if(0)', line)
    return line


def rewrite(text):
    return "\n".join(rewrite_line(l) for l in text.split("\n"))


def check(path, tmp):
    text = open(path).read()
    kind, sub, pos = expectation(text)
    base = os.path.basename(path)
    sub_dir = os.path.join(tmp, os.path.basename(os.path.dirname(path)))
    os.makedirs(sub_dir, exist_ok=True)
    src = os.path.join(sub_dir, base)
    with open(src, "w") as f:
        f.write(rewrite(text))
    exe = src[:-2]
    extra = [f for m in re.finditer(r"^//\s*gcc-flags:(.*)$", text, re.M) for f in m.group(1).split()]
    cmd = ["gcc", "-fopenacc", "-O1", "-Wall", *extra, "-include", os.path.join(HERE, "gcc_compat.h"),
           "-DACCJIT_GCC_VALIDATION", src, "-o", exe, "-lm"]
    cp = subprocess.run(cmd, capture_output=True, text=True, cwd=sub_dir)
    gap = known_gap(text)
    if gap and kind == "pass":
        ok, _, msg = run_checks(path, text, kind, cp, exe, [])
        if ok:
            return (True, path, f"gcc passes although the header says '{gap}'")
        lines = msg.strip().splitlines()
        why = next((l.split("error:", 1)[1].strip() for l in lines if "error:" in l), lines[0] if lines else "")
        return (True, path, f"gap ({gap}): {why[:120]}")
    notes = []
    nlines = text.count("\n")
    if kind == "compile-error":
        if cp.returncode == 0:
            if "// gcc: accepts" in text:
                return (True, path, "gcc accepts (noted in file)")
            return (False, path, "gcc ACCEPTS a compile-error program")
        m = re.search(re.escape(base) + r":(\d+):(\d+): (?:fatal )?error: (.*)", cp.stderr)
        if m and pos and int(m.group(1)) != pos[0]:
            notes.append(f"gcc error at {m.group(1)}:{m.group(2)} (expected {pos[0]}:{pos[1]}): {m.group(3)}")
        return (True, path, "; ".join(notes))
    return run_checks(path, text, kind, cp, exe, notes)


def known_gap(text):
    """The known-gap phrase of the program's header comment, if any."""
    head = text[:1500]
    for phrase in ("GCC 12 lacks the feature", "GCC 12 is wrong"):
        if phrase in head:
            return phrase
    return None


def run_checks(path, text, kind, cp, exe, notes):
    """A compiled (or failed) non-error program: its warnings and its run."""
    nlines = text.count("\n")
    if cp.returncode != 0:
        return (False, path, "compile failed:\n" + cp.stderr)
    if cp.stderr.strip():
        return (False, path, "warnings:\n" + cp.stderr)
    if kind in ("fail", "discrete"):
        try:
            r = subprocess.run([exe], capture_output=True, text=True, timeout=10)
            notes.append(f"(gcc run: exit {r.returncode})")
        except subprocess.TimeoutExpired:
            notes.append("(gcc run: timeout)")
        return (True, path, " ".join(notes))
    if not 20 <= nlines <= 120:
        notes.append(f"{nlines} lines (want 20-120)")
    t0 = time.time()
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return (False, path, "timeout")
    dt = time.time() - t0
    if r.returncode != 0:
        return (False, path, f"exit {r.returncode}\nstdout:\n{r.stdout[-2000:]}\nstderr:\n{r.stderr[-2000:]}")
    if r.stderr:
        return (False, path, "stderr not empty:\n" + r.stderr[-2000:])
    if dt > 0.2:
        notes.append(f"slow: {dt:.2f}s")
    return (True, path, "; ".join(notes))


def main(argv):
    targets = argv or [os.path.join(HERE, d) for d in ("core", "data", "gaps", "errors")]
    files = []
    for t in targets:
        if os.path.isdir(t):
            files += sorted(os.path.join(t, f) for f in os.listdir(t) if f.endswith(".c"))
        else:
            files.append(t)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        for ok, path, msg in ex.map(lambda p: check(p, tmp), files):
            rel = os.path.relpath(path, HERE)
            if not ok:
                bad += 1
                print(f"FAIL {rel}: {msg}")
            elif msg:
                print(f"ok   {rel}: {msg}")
    print(f"{len(files) - bad}/{len(files)} ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
