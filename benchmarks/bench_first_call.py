"""First call of a new kernel in a fresh process: cold (nothing on disk)
against the disk cache of compiled programs (rust/driver/src/disk.rs; on
nvidia also the runtime's cubin cache).

Each trial is a new Python process that first brings the device up (a data
region), then times `acc.c(src)` of a one-kernel module and the first call
(inside a data region, as benchmarks/bench_nvidia.py's row "first call,
from the disk cache (fresh process)"), then the same call again (the
launch). Cold trials use a source no process compiled before and an empty
cache directory; disk trials reuse one source after a process that stored
it. Targets (ISSUE9.md, ANCHORS.md): nvidia ≤ launch + 1 ms from the disk
cache, ≤ 50 ms cold; CPU ≤ 1 ms cached, ≤ 20 ms cold.

    python benchmarks/bench_first_call.py [--trials 7] [--devices multicore,nvidia] [--trace]

`--trace` runs one more disk-cache process per device with
ACCJIT_CUDA_TRACE=1 and prints what it wrote on stderr (the runtime's
module loads and their times).

nvidia is skipped (with a line saying so) when no GPU is present. The table
is printed last.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, sys, time
import numpy as np
import accjit as acc
dev, tag = sys.argv[1], sys.argv[2]
acc.set_device_type(dev)
b = np.ones(16, dtype=np.float32)
with acc.data(copy=[b]):
    pass
src = (f"void tiny_{tag}(int n, float *a) {{\n#pragma acc parallel loop present(a[0:n])\n"
       f"for (int i = 0; i < n; i++) a[i] += 3.0f;\n}}\n")
t0 = time.perf_counter()
lib = acc.c(src, name="first.c", device_type=dev)
t1 = time.perf_counter()
f = getattr(lib, f"tiny_{tag}")
with acc.data(copy=[b]):
    f(16, b)
t2 = time.perf_counter()
with acc.data(copy=[b]):
    f(16, b)
t3 = time.perf_counter()
assert float(b[0]) == 7.0, b[0]
r = lib.report()
t = r["timings"]
print("RESULT " + json.dumps({"compile": t1 - t0, "first": t2 - t0, "launch": t3 - t2, "disk": r["from_disk_cache"],
                              "parse": t["parse"], "lower": t["lower"], "codegen": t["codegen"]}))
"""


def child(dev, tag, cache_dir, trace=False):
    env = dict(os.environ, ACCJIT_CACHE_DIR=cache_dir)
    env.pop("ACCJIT_CACHE", None)
    if trace:
        env["ACCJIT_CUDA_TRACE"] = "1"
    p = subprocess.run([sys.executable, "-c", CHILD, dev, tag], capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"{dev} child failed:\n{p.stdout}\n{p.stderr}")
    if trace:
        print(f"-- {dev}, from the disk cache, ACCJIT_CUDA_TRACE=1:")
        print(p.stderr.rstrip() or "(nothing on stderr)")
    line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")][-1]
    return json.loads(line[len("RESULT "):])


def med(rows, key):
    return statistics.median(r[key] for r in rows) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=7)
    ap.add_argument("--devices", default="multicore,nvidia")
    ap.add_argument("--trace", action="store_true")
    args = ap.parse_args()
    import accjit as acc

    table = []
    for dev in args.devices.split(","):
        if dev == "nvidia" and acc.get_num_devices("nvidia") == 0:
            print("nvidia: no GPU here, skipped")
            continue
        stamp = f"{os.getpid()}_{int(time.time() * 1e6)}"
        cold = []
        for i in range(args.trials):
            with tempfile.TemporaryDirectory(prefix="accjit-bench-cold-") as d:
                cold.append(child(dev, f"c{stamp}_{i}", d))
        with tempfile.TemporaryDirectory(prefix="accjit-bench-disk-") as d:
            first = child(dev, f"d{stamp}", d)
            assert not first["disk"], "the populating process found an entry"
            disk = [child(dev, f"d{stamp}", d) for _ in range(args.trials)]
            if args.trace:
                child(dev, f"d{stamp}", d, trace=True)
        assert not any(r["disk"] for r in cold) and all(r["disk"] for r in disk)
        for mode, rows in (("cold", cold), ("disk cache", disk)):
            table.append((dev, mode, med(rows, "compile"), med(rows, "parse"), med(rows, "lower"), med(rows, "codegen"),
                          med(rows, "first"), med(rows, "launch"), statistics.median(r["first"] - r["launch"] for r in rows) * 1e3))
    print()
    print(f"first call of a new one-kernel module in a fresh process, device up; median of {args.trials} processes, ms")
    print(f"{'device':<10} {'mode':<11} {'acc.c':>7} {'parse':>7} {'lower':>7} {'codegen':>8} {'c+call':>8} {'launch':>7} {'c+call-launch':>14}")
    for dev, mode, *v in table:
        print(f"{dev:<10} {mode:<11} " + " ".join(f"{x:>{w}.2f}" for x, w in zip(v, (7, 7, 7, 8, 8, 7, 14))))
    print("(codegen on a disk-cache hit: key, file read, decode and loading the image and PTX; "
          "c+call: acc.c + the first call in a data region; targets: nvidia ≤ launch + 1 from the disk cache, CPU ≤ 1 cached)")


if __name__ == "__main__":
    main()
