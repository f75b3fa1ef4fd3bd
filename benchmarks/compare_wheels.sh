#!/usr/bin/env bash
# The multicore benchmark (bench_multicore.py) for two builds of accjit in one
# run on the GPU machine's host CPU, to check that a change costs no row more
# than 5%: carry `.whl/base/` and `.whl/cur/` (one wheel each) and
# `.whl/nb.tar.xz` (numba + llvmlite for cp312, unpacked site-packages,
# xz-compressed), then from the repository root:
#     bash benchmarks/compare_wheels.sh [ROUNDS]
# Rounds alternate which build goes first (the machine drifts: compare each
# build's ratio to NumPy and Numba in the same process, not only its times).
set -uo pipefail
rounds=${1:-2}
for w in base cur; do mkdir -p /tmp/$w; python3 -m pip install -q --no-index --no-deps --target /tmp/$w .whl/$w/*.whl; done
mkdir -p /tmp/nb && tar xJf .whl/nb.tar.xz -C /tmp/nb
nproc
for round in $(seq 1 "$rounds"); do
  order="base cur"; [ $((round % 2)) -eq 0 ] && order="cur base"
  for w in $order; do
    for args in "" "--n 67108864 --m 8192"; do
      echo "== $w round $round args=[$args]"
      PYTHONPATH=/tmp/$w:/tmp/nb python3 benchmarks/bench_multicore.py $args 2>&1 | sed -n '/^kernel/,/^matmul/p;/launch:/p;/first call/p'
    done
  done
done
