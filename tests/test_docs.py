"""The documentation site's pages that promise runnable code, and the generated support matrix.

Runnable pages (RUNNABLE): every ```python block is accjit code, run in order in one fresh
interpreter per page (a block may use what an earlier one defined), on the multicore device; the
blocks assert their results, so a wrong example fails here. Blocks in ```py show another tool
(Numba, CuPy) beside the accjit version and are not run. A ```c block holding `main` (or a
```fortran block holding a `program`) is a whole program: it is run with `python -m accjit run`
and must exit 0; when a ```text block follows it on the page (before the next program), that is
its exact output.

The support matrix (docs/support-matrix.md) must be what scripts/support_matrix.py makes from
the committed results (docs/data/results-*.json) and the current corpus, and the results of the
locally measured devices must name exactly the corpus's programs: a program added to the corpus
without a results entry fails here (`python scripts/support_matrix.py --update` runs just the new
programs; `--run` measures everything again).
The site itself is built with warnings as errors by `./run docs` (mkdocs build --strict).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
RUNNABLE = ["index.md", "getting-started.md", "migration.md"]
FENCE = re.compile(r"^```([A-Za-z0-9_+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)

sys.path.insert(0, str(REPO / "scripts"))
import support_matrix  # noqa: E402


def blocks(page: str):
    """[(language, code, line of the code's first line)] of a page's fenced blocks."""
    text = (DOCS / page).read_text()
    return [(m.group(1), m.group(2), text.count("\n", 0, m.start(2)) + 1) for m in FENCE.finditer(text)]


def child_env():
    env = dict(os.environ)
    env["ACC_DEVICE_TYPE"] = "multicore"
    env["PYTHONPATH"] = os.pathsep.join(x for x in (env.get("PYTHONPATH"), str(REPO / "python")) if x)
    env.setdefault("MPLBACKEND", "Agg")
    return env


def accjit_available() -> bool:
    probe = "import accjit._core"
    return subprocess.run([sys.executable, "-c", probe], env=child_env(), capture_output=True).returncode == 0


needs_accjit = pytest.mark.skipif(not accjit_available(), reason="accjit._core is not built")

def page_script(page: str) -> str:
    """The page's python blocks as one script, each block on its own lines of the page (the
    other lines blank), so that a traceback's line is the page's line and Python kernels find
    their source (inspect reads it from the file)."""
    n_lines = (DOCS / page).read_text().count("\n") + 1
    lines = [""] * n_lines
    for lang, code, line in blocks(page):
        if lang == "python":
            for k, text in enumerate(code.rstrip("\n").split("\n")):
                lines[line - 1 + k] = text
    return "\n".join(lines) + "\n"


def test_runnable_pages_exist_and_have_code():
    for page in RUNNABLE:
        assert (DOCS / page).is_file(), f"docs/{page} is missing"
    langs = [lang for page in RUNNABLE for lang, _c, _l in blocks(page)]
    assert langs.count("python") >= 8, "the runnable pages should show accjit code in ```python blocks"
    assert langs.count("py") >= 3, "the migration guide should show the other tools' code in ```py blocks"


@needs_accjit
@pytest.mark.parametrize("page", RUNNABLE)
def test_python_blocks_run(page, tmp_path):
    if not any(lang == "python" for lang, _c, _l in blocks(page)):
        pytest.skip(f"{page} has no python blocks")
    script = tmp_path / (page.replace(".md", "") + "_md.py")
    script.write_text(page_script(page))
    cp = subprocess.run([sys.executable, str(script)], text=True, capture_output=True, env=child_env(),
                        cwd=tmp_path, timeout=300)
    assert cp.returncode == 0, f"docs/{page}: a python block failed (the traceback's lines are the page's)\n" + \
        cp.stdout[-3000:] + cp.stderr[-5000:]


PROGRAM_RE = {"c": re.compile(r"\bint\s+main\s*\("), "fortran": re.compile(r"^\s*program\s+\w", re.I | re.M)}
SUFFIX = {"c": ".c", "fortran": ".f90"}


def c_programs(page):
    """[(code, line, expected stdout or None, suffix)] of the page's whole programs: ```c blocks
    that hold `main`, ```fortran blocks that hold a `program`."""
    out = []
    bs = blocks(page)
    for k, (lang, code, line) in enumerate(bs):
        if lang not in PROGRAM_RE or not PROGRAM_RE[lang].search(code):
            continue
        want = None
        for lang2, code2, _ in bs[k + 1:]:
            if lang2 in PROGRAM_RE:
                break
            if lang2 == "text":
                want = code2
                break
        out.append((code, line, want, SUFFIX[lang]))
    return out


@needs_accjit
@pytest.mark.parametrize("page", RUNNABLE)
def test_whole_programs_run(page, tmp_path):
    progs = c_programs(page)
    if not progs:
        pytest.skip(f"{page} has no whole C or Fortran programs")
    for code, line, want, suffix in progs:
        src = tmp_path / f"prog_{line}{suffix}"
        src.write_text(code)
        cp = subprocess.run([sys.executable, "-m", "accjit", "run", str(src)], capture_output=True, text=True,
                            env=child_env(), cwd=tmp_path, timeout=120)
        assert cp.returncode == 0, f"docs/{page}:{line}: exit {cp.returncode}\n{cp.stdout}\n{cp.stderr}"
        assert cp.stderr == "", f"docs/{page}:{line}: stderr\n{cp.stderr}"
        if want is not None:
            assert cp.stdout == want, f"docs/{page}:{line}: prints {cp.stdout!r}, the page says {want!r}"


# ---------------------------------------------------------------------------
# The support matrix

def test_support_matrix_page_is_generated():
    page = DOCS / "support-matrix.md"
    assert page.is_file(), "docs/support-matrix.md is missing: run python scripts/support_matrix.py"
    assert page.read_text() == support_matrix.generate(), (
        "docs/support-matrix.md is not what scripts/support_matrix.py makes from docs/data/results-*.json "
        "and the corpus: run python scripts/support_matrix.py (--run to measure again)")


def test_results_cover_the_corpus():
    programs = set(support_matrix.corpus_programs())
    results = support_matrix.load_results()
    for device in support_matrix.LOCAL_DEVICES:
        assert device in results, f"docs/data/results-{device}.json is missing: python scripts/support_matrix.py --run"
        have = set(results[device])
        missing = sorted(programs - have)
        assert not missing, (f"results-{device}.json has no result for {missing[:10]} "
                             f"({len(missing)} in all): python scripts/support_matrix.py --update (runs only those)")
        extra = sorted(have - programs)
        assert not extra, f"results-{device}.json names programs not in the corpus: {extra[:10]}"
    for device, progs in results.items():
        assert not sorted(set(progs) - programs), f"results-{device}.json names programs not in the corpus"
        bad = {p: r["outcome"] for p, r in progs.items() if r.get("outcome") not in ("pass", "fail", "xfail", "skip")}
        assert not bad, f"results-{device}.json: unknown outcomes {bad}"


def test_support_matrix_counts_agree_with_results():
    # the corpus summary's "all" row, recomputed from the JSON, must be on the page
    page = (DOCS / "support-matrix.md").read_text()
    results = support_matrix.load_results()
    programs = support_matrix.corpus_programs()
    row = next(line for line in page.splitlines() if line.startswith("| **all** |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == str(len(programs))
    measured = [d for d in support_matrix.DEVICES if d in results]
    for d, cell in zip(measured, cells[2:]):
        passed = sum(1 for p in programs if results[d].get(p, {}).get("outcome") == "pass")
        assert cell.startswith(f"{passed}/"), f"{d}: the page says {cell}, the results {passed} passing"


def test_feature_extraction():
    c = support_matrix.c_directives("#pragma acc parallel loop \\\n  copyin(a[0:n]) reduction(+:s)\nint x;\n"
                                    "  #  pragma acc enter data create(b[0:n]) async(1)\n")
    assert c == [" parallel loop    copyin(a[0:n]) reduction(+:s)", " enter data create(b[0:n]) async(1)"]
    f = support_matrix.fortran_directives("!$ACC PARALLEL LOOP &\n!$acc& COPYIN(A) ! comment\n"
                                          "c$acc kernels copyin(a)\nc$acc& copyout(b)\n  !$acc end parallel loop\n")
    assert f == ["parallel loop   copyin(a)", "kernels copyin(a) copyout(b)", "end parallel loop"]
    feats = support_matrix.directive_features("parallel loop gang(num:4) copyin(readonly: a[0:n]) dtype(nvidia)")
    assert feats == {"directive parallel loop", "clause gang", "clause copyin", "clause device_type",
                     "modifier num:", "modifier readonly:"}
    assert support_matrix.directive_features("atomic capture") == {"directive atomic", "atomic capture"}
    assert support_matrix.directive_features("atomic") == {"directive atomic", "atomic update"}
    assert support_matrix.directive_features("end parallel") == set()
    assert support_matrix.directive_features("wait(1) async(2)") == {"directive wait", "clause async"}
