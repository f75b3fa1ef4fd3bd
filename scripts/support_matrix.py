#!/usr/bin/env python3
"""The OpenACC support matrix of the docs site, generated from the conformance corpus.

Features come from scanning each program's source: C `#pragma acc` lines and Fortran `!$acc`
(`c$acc`, `*$acc`) lines give directives, clauses and clause modifiers; calls `acc_name(` give
the runtime routines (names from the checklist, shared/spec/openacc-checklist.md §1.14 and
§3.2, copied below so that the generator needs only the repository). Results come from test runs
of tests/test_conformance.py with ACCJIT_RESULTS_JSON set: docs/data/results-<device>.json,
one per device type. The page, docs/support-matrix.md, shows per feature and device how many of
the programs using the feature pass, and lists the ones that do not.

    python scripts/support_matrix.py           regenerate docs/support-matrix.md from the JSON
    python scripts/support_matrix.py --run     run the corpus on multicore and host first
                                               (writes docs/data/results-{multicore,host}.json)
    python scripts/support_matrix.py --update  run only the programs those files lack (a program
                                               just added to the corpus) or whose xfail no longer
                                               matches FORTRAN_KNOWN_FAILURES, and merge them in
    python scripts/support_matrix.py --import nvidia=PATH
                                               take a device's results JSON made elsewhere
                                               (the GPU machine), then regenerate
    python scripts/support_matrix.py --check   exit 1 if the committed page is not what the
                                               generator makes (tests/test_docs.py does the same)

Devices whose results are measured here (LOCAL_DEVICES) must cover exactly the corpus's programs
(tests/test_docs.py checks it); a device measured elsewhere may lack programs added since its
run, which the page then counts as "not measured".
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "docs" / "data"
PAGE = REPO / "docs" / "support-matrix.md"
CORPUS = REPO / "tests" / "conformance"
DEVICES = ("multicore", "host", "nvidia")
LOCAL_DEVICES = ("multicore", "host")

# checklist §1.14: the 20 directive names of OpenACC 3.3 (combined forms first: longest match wins)
DIRECTIVES = [
    "parallel loop", "serial loop", "kernels loop", "enter data", "exit data", "host_data",
    "parallel", "serial", "kernels", "data", "loop", "cache", "atomic", "declare", "routine",
    "init", "shutdown", "set", "update", "wait",
]
ATOMIC_FORMS = ["read", "write", "update", "capture"]
# checklist §1.14: clause keywords (the atomic ones are forms of `atomic` above), legacy clauses
CLAUSES = [
    "async", "wait", "num_gangs", "num_workers", "vector_length", "device_type", "if", "self",
    "reduction", "private", "firstprivate", "default", "copy", "copyin", "copyout", "create",
    "no_create", "present", "deviceptr", "attach", "detach", "delete", "finalize", "use_device",
    "if_present", "collapse", "gang", "worker", "vector", "seq", "independent", "auto", "tile",
    "device_resident", "link", "host", "device", "default_async", "device_num", "bind", "nohost",
    "present_or_copy", "present_or_copyin", "present_or_copyout", "present_or_create",
    "pcopy", "pcopyin", "pcopyout", "pcreate",
]
CLAUSE_ALIASES = {"dtype": "device_type"}
# checklist §1.14: modifiers and argument keywords (written `name:` inside a clause's parentheses)
MODIFIERS = ["readonly", "zero", "force", "num", "static", "dim", "length", "devnum", "queues"]
# checklist §3.2 (65 entry points), legacy names, and acc_get_property_string's companions
ROUTINES = [
    "acc_get_num_devices", "acc_set_device_type", "acc_get_device_type", "acc_set_device_num",
    "acc_get_device_num", "acc_get_property", "acc_get_property_string", "acc_init",
    "acc_init_device", "acc_shutdown", "acc_shutdown_device", "acc_async_test",
    "acc_async_test_device", "acc_async_test_all", "acc_async_test_all_device", "acc_wait",
    "acc_wait_device", "acc_wait_all", "acc_wait_all_device", "acc_wait_async",
    "acc_wait_device_async", "acc_wait_all_async", "acc_wait_all_device_async", "acc_wait_any",
    "acc_wait_any_device", "acc_get_default_async", "acc_set_default_async", "acc_on_device",
    "acc_malloc", "acc_free", "acc_copyin", "acc_create", "acc_copyin_async", "acc_create_async",
    "acc_copyout", "acc_delete", "acc_copyout_finalize", "acc_delete_finalize",
    "acc_copyout_async", "acc_delete_async", "acc_copyout_finalize_async",
    "acc_delete_finalize_async", "acc_update_device", "acc_update_self",
    "acc_update_device_async", "acc_update_self_async", "acc_map_data", "acc_unmap_data",
    "acc_deviceptr", "acc_hostptr", "acc_is_present", "acc_memcpy_to_device",
    "acc_memcpy_to_device_async", "acc_memcpy_from_device", "acc_memcpy_from_device_async",
    "acc_memcpy_device", "acc_memcpy_device_async", "acc_attach", "acc_attach_async",
    "acc_detach", "acc_detach_async", "acc_detach_finalize", "acc_detach_finalize_async",
    "acc_memcpy_d2d", "acc_memcpy_d2d_async",
    # legacy (2.0) names
    "acc_async_wait", "acc_async_wait_all", "acc_present_or_copyin", "acc_pcopyin",
    "acc_present_or_create", "acc_pcreate",
]
FORTRAN_SUFFIXES = (".f90", ".F90", ".f", ".F")
DIAGNOSTIC_PARTS = ("errors", "fortran/errors")


# ---------------------------------------------------------------------------
# The corpus (the same discovery as tests/test_conformance.py, which is the authority)

def corpus_programs() -> List[str]:
    """Program names relative to tests/conformance, as the conformance tests name them."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        import test_conformance as tc  # noqa: E402  (pytest is importable wherever the tests run)
    finally:
        sys.path.pop(0)
    return [tc.rel(p) for p in tc.PROGRAMS]


def known_failures() -> Set[str]:
    """The programs tests/test_conformance.py marks xfail (FORTRAN_KNOWN_FAILURES)."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        import test_conformance as tc  # noqa: E402
    finally:
        sys.path.pop(0)
    return set(tc.FORTRAN_KNOWN_FAILURES)


def part_of(name: str) -> str:
    parts = name.split("/")
    if parts[0] != "fortran":
        return parts[0]
    return "fortran/errors" if parts[1] == "errors" else "fortran"


def is_fortran(name: str) -> bool:
    return part_of(name).startswith("fortran")


def source_files(name: str) -> List[Path]:
    p = CORPUS / name
    if p.is_dir():
        return sorted(f for f in p.iterdir() if f.is_file() and f.suffix in FORTRAN_SUFFIXES)
    return [p]


# ---------------------------------------------------------------------------
# Feature extraction

def c_directives(text: str) -> List[str]:
    """The text after `#pragma acc` of every C directive (backslash continuations joined)."""
    text = text.replace("\\\r\n", " ").replace("\\\n", " ")
    return [m.group(1) for m in re.finditer(r"^[ \t]*#[ \t]*pragma[ \t]+acc\b(.*)$", text, re.M)]


FORTRAN_SENTINEL = re.compile(r"^(?:[ \t]*!|[cC*!])\$acc(.*)$", re.I)


def fortran_directives(text: str) -> List[str]:
    """The text after the sentinel of every Fortran directive, continuations joined (free form:
    a trailing `&`; fixed form: a non-blank column 6 after `c$acc`)."""
    out: List[str] = []
    continued = False
    for line in text.splitlines():
        m = FORTRAN_SENTINEL.match(line)
        if not m:
            continued = False
            continue
        body = m.group(1)
        fixed_cont = line[:1] in "cC*" and body[:1] not in ("", " ", "\t", "0")
        body = body.split("!", 1)[0]          # a trailing comment
        if fixed_cont:
            body = body[1:]
        stripped = body.strip()
        if stripped.startswith("&"):
            stripped = stripped[1:]
        ends_amp = stripped.endswith("&")
        if ends_amp:
            stripped = stripped[:-1]
        if (continued or fixed_cont) and out:
            out[-1] += " " + stripped
        else:
            out.append(stripped)
        continued = ends_amp
    return [d.lower() for d in out]


def strip_parens(s: str) -> Tuple[str, List[str]]:
    """`s` with every parenthesised group removed, and the groups' contents."""
    top, groups, depth, cur = [], [], 0, []
    for ch in s:
        if ch == "(":
            if depth:
                cur.append(ch)
            depth += 1
            top.append(" ")
        elif ch == ")" and depth:
            depth -= 1
            if depth:
                cur.append(ch)
            else:
                groups.append("".join(cur))
                cur = []
        elif depth:
            cur.append(ch)
        else:
            top.append(ch)
    return "".join(top), groups


def directive_features(text: str) -> Set[str]:
    """Features of one directive's text: `directive X`, `atomic X`, `clause X`, `modifier X:`."""
    t = " ".join(text.split())
    if re.match(r"end\b", t, re.I):
        return set()
    name = next((d for d in DIRECTIVES if re.match(re.escape(d).replace(r"\ ", r"\s+") + r"\b", t)), None)
    if name is None:
        return set()
    feats = {f"directive {name}"}
    rest = t[len(re.match(re.escape(name).replace(r"\ ", r"\s+"), t).group(0)):]
    top, groups = strip_parens(rest)
    words = re.findall(r"[a-z_]+", top)
    if name == "atomic":
        form = next((w for w in words if w in ATOMIC_FORMS), "update")
        feats.add(f"atomic {form}")
        words = [w for w in words if w not in ATOMIC_FORMS]
    for w in words:
        w = CLAUSE_ALIASES.get(w, w)
        if w in CLAUSES:
            feats.add(f"clause {w}")
    for g in groups:
        for mod in re.findall(r"\b([a-z_]+)\s*:(?!:)", g):
            if mod in MODIFIERS:
                feats.add(f"modifier {mod}:")
    return feats


ROUTINE_RE = re.compile(r"\b(acc_[a-z_0-9]+)\s*\(", re.I)
ROUTINE_SET = set(ROUTINES)


def program_features(name: str) -> Set[str]:
    feats: Set[str] = set()
    for f in source_files(name):
        text = f.read_text(errors="replace")
        fortran = f.suffix in FORTRAN_SUFFIXES
        directives = fortran_directives(text) if fortran else c_directives(text)
        for d in directives:
            feats |= directive_features(d)
        code = text.lower() if fortran else text
        # routine names outside comments are what the program calls (C prototypes in a
        # program's own code are rare; a comment that names a routine is not a use)
        code = re.sub(r"//[^\n]*|/\*.*?\*/", " ", code, flags=re.S) if not fortran else \
            "\n".join(line.split("!", 1)[0] for line in code.splitlines())
        for r in ROUTINE_RE.findall(code):
            if r in ROUTINE_SET:
                feats.add(f"routine {r}")
    return feats


def all_features() -> List[Tuple[str, List[str]]]:
    """(section title, features) in page order: every name of the checklist, used or not."""
    return [
        ("Directives", [f"directive {d}" for d in DIRECTIVES] + [f"atomic {a}" for a in ATOMIC_FORMS]),
        ("Clauses", [f"clause {c}" for c in CLAUSES]),
        ("Clause modifiers", [f"modifier {m}:" for m in MODIFIERS]),
        ("Runtime routines", [f"routine {r}" for r in ROUTINES]),
    ]


# ---------------------------------------------------------------------------
# Results

def results_path(device: str) -> Path:
    return DATA / f"results-{device}.json"


def load_results(data_dir: Path = DATA) -> Dict[str, Dict[str, dict]]:
    """device -> program -> {outcome, why?} for every results file present."""
    out: Dict[str, Dict[str, dict]] = {}
    meta: Dict[str, dict] = {}
    for device in DEVICES:
        p = data_dir / f"results-{device}.json"
        if p.is_file():
            doc = json.loads(p.read_text())
            dev = doc["devices"][device]
            why = dev.get("why", {})
            out[device] = {name: ({"outcome": o, "why": why[name]} if name in why else {"outcome": o})
                           for name, o in dev["outcomes"].items()}
            meta[device] = doc.get("source", {})
    load_results.meta = meta  # type: ignore[attr-defined]
    return out


def anchor(feature: str) -> str:
    return "fail-" + re.sub(r"[^a-z0-9]+", "-", feature.lower()).strip("-")


def feature_label(feature: str) -> str:
    kind, name = feature.split(" ", 1)
    return f"`{name}`" if kind != "atomic" else f"`atomic {name}`"


def render(programs: List[str], results: Dict[str, Dict[str, dict]], meta: Optional[Dict[str, dict]] = None) -> str:
    """The Markdown of docs/support-matrix.md (deterministic: same inputs, same bytes)."""
    meta = meta or {}
    feature_programs: Dict[str, List[str]] = defaultdict(list)
    for prog in programs:
        if part_of(prog) in DIAGNOSTIC_PARTS:
            continue
        for f in program_features(prog):
            feature_programs[f].append(prog)
    lines: List[str] = []
    w = lines.append
    w("# Support matrix")
    w("")
    w("<!-- Generated by scripts/support_matrix.py from the conformance corpus and docs/data/results-*.json;")
    w("     do not edit by hand: run `python scripts/support_matrix.py --run` (see below). -->")
    w("")
    w("What of OpenACC works on which device type, measured: every program of the conformance corpus")
    w("(`tests/conformance/`, C and Fortran) is scanned for the directives, clauses, clause modifiers")
    w("and runtime routines it uses, and run on each device type. A cell reads **passing / run**: of")
    w("the programs that use the feature and ran on that device, how many passed. Programs that check")
    w("diagnostics (`errors/`, `fortran/errors/`) count only in the corpus summary. A program that")
    w("needs discrete memory (`expect: discrete`) does not run on the shared-memory devices (multicore,")
    w("host). A ✗ links to the programs that fail.")
    w("")
    w("Regenerate it with one command (runs the corpus on multicore and host, several minutes on two")
    w("cores), `python scripts/support_matrix.py --run`; `--update` runs only programs added since. The")
    w("nvidia column comes from a results file made on a GPU machine (`--run --devices nvidia` there,")
    w("`--import nvidia=results-nvidia.json` here; see the script's help).")
    w("")
    # measured where
    w("| device | results |")
    w("|---|---|")
    for d in DEVICES:
        if d in results:
            src = meta.get(d, {})
            where = f"{len(results[d])} programs"
            if src.get("commit"):
                where += f", main at `{src['commit']}`"
            if src.get("date"):
                where += f", {src['date']}"
            w(f"| {d} | {where} |")
        else:
            w(f"| {d} | not measured |")
    w("")
    # corpus summary
    w("## Corpus summary")
    w("")
    measured = [d for d in DEVICES if d in results]
    w("| part | programs | " + " | ".join(measured) + " |")
    w("|---|---|" + "---|" * len(measured))
    parts = []
    for prog in programs:
        if part_of(prog) not in parts:
            parts.append(part_of(prog))
    totals = {d: defaultdict(int) for d in measured}
    for part in parts + ["all"]:
        progs = [p for p in programs if part == "all" or part_of(p) == part]
        cells = []
        for d in measured:
            c = defaultdict(int)
            for p in progs:
                c[results[d].get(p, {}).get("outcome", "unmeasured")] += 1
            run = c["pass"] + c["fail"] + c["xfail"]
            cell = f"{c['pass']}/{run}"
            extra = [f"{c[k]} {k}" for k in ("fail", "xfail", "skip", "unmeasured") if c[k]]
            cells.append(cell + (f" ({', '.join(extra)})" if extra else ""))
        label = "**all**" if part == "all" else f"`{part}/`"
        w(f"| {label} | {len(progs)} | " + " | ".join(cells) + " |")
    w("")
    w("Outcomes: *pass*; *fail*; *xfail*, a known gap listed in `tests/test_conformance.py`")
    w("(counted as not passing); *skip*, not run on that device (discrete-memory programs on")
    w("shared-memory devices); *unmeasured*, a program added after that device's results were taken.")
    w("")
    failing: Dict[str, Dict[str, List[str]]] = {}
    for title, feats in all_features():
        w(f"## {title}")
        w("")
        w("| feature | programs | " + " | ".join(DEVICES) + " |")
        w("|---|---|" + "---|" * len(DEVICES))
        for f in feats:
            progs = sorted(feature_programs.get(f, []))
            cells = []
            for d in DEVICES:
                if not progs:
                    cells.append("—")
                    continue
                if d not in results:
                    cells.append("not measured")
                    continue
                outcomes = {p: results[d].get(p, {}).get("outcome", "unmeasured") for p in progs}
                ran = [p for p, o in outcomes.items() if o in ("pass", "fail", "xfail")]
                passed = [p for p in ran if outcomes[p] == "pass"]
                bad = [p for p in ran if outcomes[p] != "pass"]
                if not ran:
                    cells.append("not run")
                    continue
                cell = f"{len(passed)}/{len(ran)}"
                if bad:
                    failing.setdefault(f, {})[d] = bad
                    cell += f" [✗](#{anchor(f)})"
                cells.append(cell)
            w(f"| {feature_label(f)} | {len(progs)} | " + " | ".join(cells) + " |")
        w("")
    w("## Where it fails")
    w("")
    if not failing:
        w("No measured program fails.")
        w("")
    for f in (f for _, feats in all_features() for f in feats if f in failing):
        w(f'<a id="{anchor(f)}"></a>')
        w("")
        w(f"**{f.split(' ', 1)[0]} {feature_label(f)}**")
        w("")
        for d in DEVICES:
            for p in failing[f].get(d, []):
                r = results[d][p]
                why = f": {r['why']}" if r.get("why") else ""
                why = why.replace("|", "\\|").replace("`", "'")
                w(f"- {d}: `tests/conformance/{p}` ({r['outcome']}){why}")
        w("")
    return "\n".join(lines).rstrip() + "\n"


def generate(data_dir: Path = DATA) -> str:
    results = load_results(data_dir)
    return render(corpus_programs(), results, getattr(load_results, "meta", {}))


# ---------------------------------------------------------------------------
# Running the corpus

def git_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def stamp(path: Path, commit: str, date: str):
    doc = json.loads(path.read_text())
    doc["source"] = {"commit": commit, "date": date}
    path.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def run_corpus(devices: List[str], python: str, update: bool = False, commit: str = "") -> int:
    """Runs tests/test_conformance.py on `devices`, writing docs/data/results-<device>.json.
    With `update`, runs only the programs a device's results lack and merges their outcomes in
    (dropping programs no longer in the corpus); the file keeps its commit and date."""
    import datetime
    import tempfile
    DATA.mkdir(parents=True, exist_ok=True)
    programs = corpus_programs()
    old = load_results() if update else {}
    selection: List[str] = []
    if update:
        known = known_failures()
        for d in devices:
            have = old.get(d, {})
            # missing programs, and those whose xfail no longer matches the known-failures list
            stale = [p for p in programs if p not in have or (have[p]["outcome"] == "xfail") != (p in known)
                     and have[p]["outcome"] != "skip"]
            selection += [f"tests/test_conformance.py::test_program[{p}-{d}]" for p in stale]
        if not selection:
            print("[support_matrix] every program has a result on " + ", ".join(devices), file=sys.stderr)
            for d in devices:
                _merge(d, {}, programs)
            return 0
    out_dir = Path(tempfile.mkdtemp(prefix="accjit-results-")) if update else DATA
    env = dict(os.environ)
    env["ACCJIT_CONFORMANCE_DEVICES"] = ",".join(devices)
    env["ACCJIT_RESULTS_JSON"] = str(out_dir / "results-{device}.json")
    env["ACCJIT_CONFORMANCE_REQUIRE"] = "1"
    cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    cmd += selection if update else ["tests/test_conformance.py", "-k", "test_program"]
    print(f"[support_matrix] pytest on {', '.join(devices)}: {len(selection) or 'all'} runs", file=sys.stderr)
    rc = subprocess.run(cmd, cwd=REPO, env=env).returncode
    if update:
        for d in devices:
            new = load_results(out_dir).get(d, {})
            _merge(d, new, programs)
        return rc
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    commit = commit or git_head()
    for d in devices:
        if results_path(d).is_file():
            stamp(results_path(d), commit, date)
    return rc


def _merge(device: str, new: Dict[str, dict], programs: List[str]):
    """Adds `new` outcomes to the device's results file, keeping only corpus programs."""
    path = results_path(device)
    doc = json.loads(path.read_text()) if path.is_file() else {"format": 1, "devices": {device: {}}}
    merged = dict(load_results().get(device, {}))
    merged.update(new)
    keep = set(programs)
    entries = {p: merged[p] for p in sorted(merged) if p in keep}
    doc["devices"][device] = {"outcomes": {p: e["outcome"] for p, e in entries.items()},
                              "why": {p: e["why"] for p, e in entries.items() if "why" in e}}
    path.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", action="store_true", help="run the corpus on the local devices first")
    ap.add_argument("--update", action="store_true",
                    help="run only the programs the results files lack (new corpus programs) and merge them in")
    ap.add_argument("--devices", default=",".join(LOCAL_DEVICES), help="devices for --run (default multicore,host)")
    ap.add_argument("--import", dest="imports", action="append", default=[], metavar="DEVICE=PATH",
                    help="take DEVICE's results from PATH (a results JSON written by the conformance tests)")
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/support-matrix.md is stale")
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs the tests")
    ap.add_argument("--commit", default="", help="the commit the tested accjit was built from, for the results' "
                    "stamp (default: this checkout's HEAD; give it where an installed wheel is tested)")
    args = ap.parse_args(argv)
    if args.check:
        ok = PAGE.is_file() and PAGE.read_text() == generate()
        print("docs/support-matrix.md is " + ("up to date" if ok else "stale: run python scripts/support_matrix.py"))
        return 0 if ok else 1
    status = 0
    if args.run or args.update:
        status = run_corpus([d.strip() for d in args.devices.split(",") if d.strip()], args.python, update=args.update,
                             commit=args.commit)
    for spec in args.imports:
        device, _, path = spec.partition("=")
        doc = json.loads(Path(path).read_text())
        if device not in doc.get("devices", {}):
            print(f"{path} has no results for {device}", file=sys.stderr)
            return 2
        DATA.mkdir(parents=True, exist_ok=True)
        keep = {"format": doc.get("format", 1), "devices": {device: doc["devices"][device]}}
        if "source" in doc:
            keep["source"] = doc["source"]
        results_path(device).write_text(json.dumps(keep, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    PAGE.write_text(generate())
    print(f"wrote {PAGE.relative_to(REPO)}", file=sys.stderr)
    print(summary_table())
    return status


def summary_table() -> str:
    """Outcome counts per device of the results files, and the programs that did not pass."""
    results = load_results()
    programs = set(corpus_programs())
    rows = ["== support matrix results", f"{'device':<10} {'pass':>5} {'fail':>5} {'xfail':>5} {'skip':>5} {'missing':>7}"]
    failing = []
    for d, progs in results.items():
        c = defaultdict(int)
        for name in programs:
            c[progs.get(name, {}).get("outcome", "missing")] += 1
        rows.append(f"{d:<10} {c['pass']:>5} {c['fail']:>5} {c['xfail']:>5} {c['skip']:>5} {c['missing']:>7}")
        failing += [f"  {d}: {name}" for name in sorted(programs) if progs.get(name, {}).get("outcome") == "fail"]
    if failing:
        rows.append("failing:")
        rows += failing
    return "\n".join(rows)


if __name__ == "__main__":
    sys.exit(main())
