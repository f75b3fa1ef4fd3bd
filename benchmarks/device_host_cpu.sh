#!/usr/bin/env bash
# The multicore benchmarks on the lent GPU machine's host CPU (16 cores), where
# Numba is not installed and nothing can be downloaded: carry `.whl/` holding
# our wheel and nb.tar.xz (numba + llvmlite for cp312, unpacked site-packages,
# xz-compressed to fit the carry limit). Run from the repository root there:
#   bash benchmarks/device_host_cpu.sh
set -euo pipefail
python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/accjit-*.whl
tar xJf .whl/nb.tar.xz -C /tmp/site
export PYTHONPATH=/tmp/site
out=${OUT:-/tmp}
nproc; lscpu | grep -E "Model name|L3|Thread|Socket" || true
python3 -c "import numba, numpy; print('numba', numba.__version__, 'numpy', numpy.__version__)"
for args in "" "--n 67108864 --m 8192"; do
  echo "== bench_multicore.py $args"
  python3 benchmarks/bench_multicore.py $args 2>&1 | tee -a "$out/bench.txt" | sed -n '/^kernel/,/^matmul/p'
  echo "== the same, ACCJIT_NO_GUEST=1"
  ACCJIT_NO_GUEST=1 python3 benchmarks/bench_multicore.py $args 2>&1 | tee -a "$out/bench.txt" | sed -n '/^saxpy/,/^jacobi/p'
done
python3 -c "
import numba, numpy as np
@numba.njit(parallel=True)
def f(x):
    for i in numba.prange(x.size): x[i] += 1
f(np.ones(10)); print('numba threading layer:', numba.threading_layer(), numba.get_num_threads(), 'threads')"
