"""Direct entries of the disk cache (rust/driver/src/direct.rs): a C program
that reads no header from disk is loaded in the next process without
running the front end and `lower` (its report's parse and lower times are
0), and is the same program: same results, same functions, and the same
report, IR, CLIF and PTX, made again from the source when asked for.
Programs that read a file from disk keep using the IR-keyed entry only; a
damaged direct entry falls back to it, and both damaged is a miss.

Each case runs child processes sharing a temporary ACCJIT_CACHE_DIR.
"""

import json
import os
import subprocess
import sys

import pytest

SRC = r"""
#include <math.h>
#include <stdio.h>
struct pair { int a; double b; };
double gain = 1.25;
#pragma acc declare copyin(gain)
static int scale3(int v) { return 3 * v; }
double mix(int n, const double *restrict x, double *y, struct pair *p) {
    double s = 0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n]) copyout(y[0:n]) num_gangs(4)
    for (int i = 0; i < n; i++) { y[i] = sqrt(x[i] * x[i] + 1.0) * gain; s += y[i]; }
    #pragma acc kernels loop copy(y[0:n])
    for (int i = 1; i < n; i++) y[i] += 0.5 * i;
    p->a = scale3(p->a);
    return s + p->b;
}
int twice(int k) { return 2 * k; }
"""

CHILD = r"""
import json, sys
import numpy as np
import accjit as acc
src, dev, clif = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3] == "1"
extra = json.loads(sys.argv[4])
lib = acc.c(src, name="direct.c", device_type=dev, keep_clif=clif, **extra)
r = lib.report()
out = {"disk": r["from_disk_cache"], "parse": r["timings"]["parse"], "lower": r["timings"]["lower"],
       "report": {k: v for k, v in r.items() if k != "timings"}, "text": str(lib.report()),
       "ir": lib.ir(), "clif": lib.clif(), "ptx": lib.ptx() if dev == "nvidia" else "",
       "sigs": [f.signature for f in lib.functions.values()], "docs": [f.__doc__ for f in lib.functions.values()]}
if dev != "nvidia":
    x = np.linspace(-2.0, 3.0, 500)
    y = np.zeros(500)
    p = np.zeros(1, dtype=[("a", np.int32), ("b", np.float64)])
    p["a"], p["b"] = 7, 0.5
    out["mix"] = round(lib.mix(500, x, y, p), 9)
    out["y"] = y.tolist()
    out["a"] = int(p["a"][0])
    out["twice"] = lib.twice(21)
print("RESULT " + json.dumps(out))
"""


@pytest.fixture
def env(tmp_path):
    e = dict(os.environ)
    e["ACCJIT_CACHE_DIR"] = str(tmp_path / "cache")
    for k in ("ACCJIT_CACHE", "ACCJIT_CACHE_MAX_MB", "ACC_DEVICE_TYPE"):
        e.pop(k, None)
    return e


def run(tmp_path, env, src=SRC, dev="multicore", clif=False, **extra):
    (tmp_path / "direct.c").write_text(src)
    (tmp_path / "child.py").write_text(CHILD)
    args = [str(tmp_path / "child.py"), str(tmp_path / "direct.c"), dev, "1" if clif else "0", json.dumps(extra)]
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == "", p.stdout + p.stderr
    (line,) = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
    return json.loads(line[len("RESULT "):])


def files(tmp_path):
    d = tmp_path / "cache"
    return sorted(p for p in d.iterdir() if p.name.startswith("prog-")) if d.is_dir() else []


def same_program(a, b):
    keys = [k for k in a if k not in ("disk", "parse", "lower", "report", "text")]
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
    ra, rb = dict(a["report"]), dict(b["report"])
    ra.pop("from_disk_cache"), rb.pop("from_disk_cache")
    assert ra == rb
    assert a["text"].split("\n", 1)[1] == b["text"].split("\n", 1)[1]  # below the headline (times)


@pytest.mark.parametrize("dev,clif", [("multicore", False), ("host", True), ("nvidia", False)])
def test_a_program_of_bundled_headers_loads_without_front_end_and_lower(tmp_path, env, dev, clif):
    first = run(tmp_path, env, dev=dev, clif=clif)
    assert first["disk"] is False and first["parse"] > 0
    assert len(files(tmp_path)) == 2  # the IR-keyed entry and the direct one
    second = run(tmp_path, env, dev=dev, clif=clif)
    assert second["disk"] is True and second["parse"] == 0.0 and second["lower"] == 0.0
    same_program(first, second)
    assert first["report"]["regions"] and first["report"]["loops"]
    if dev == "nvidia":
        assert ".entry" in second["ptx"] and any("thread block" in str(r["launch"]) for r in second["report"]["regions"])
    else:
        assert second["a"] == 21 and second["twice"] == 42 and second["y"][3] > 0
    if clif:
        assert "function" in second["clif"]


def test_damaged_direct_entries_fall_back_and_both_damaged_is_a_miss(tmp_path, env):
    first = run(tmp_path, env)
    entries = files(tmp_path)
    whole = {f: f.read_bytes() for f in entries}
    for f in entries:  # either one damaged: the other loads it
        f.write_bytes(whole[f][: len(whole[f]) // 2])
        again = run(tmp_path, env)
        assert again["disk"] is True
        same_program(first, again)
        f.write_bytes(whole[f])
    for f in entries:
        f.write_bytes(whole[f][:-1])
    again = run(tmp_path, env)
    assert again["disk"] is False and again["parse"] > 0
    same_program(first, again)
    assert {f: f.read_bytes() for f in entries} == whole  # rewritten by the miss


def test_programs_reading_files_or_with_other_options_have_their_own_entries(tmp_path, env):
    (tmp_path / "local.h").write_text("#define LOCAL_GAIN 2\n")
    quoted = '#include "local.h"\n' + SRC
    run(tmp_path, env, src=quoted)
    assert len(files(tmp_path)) == 1  # no direct entry: the header is read from disk
    again = run(tmp_path, env, src=quoted)
    assert again["disk"] is True and again["parse"] > 0
    (tmp_path / "local.h").write_text("#define LOCAL_GAIN 3\n")
    assert run(tmp_path, env, src=quoted)["disk"] is False
    base = run(tmp_path, env)
    defined = run(tmp_path, env, defines={"UNUSED": "1"})
    assert base["disk"] is False and defined["disk"] is False
    assert run(tmp_path, env, defines={"UNUSED": "1"})["parse"] == 0.0
    assert run(tmp_path, env, include_dirs=[str(tmp_path)])["parse"] > 0
