"""Jacobi per sweep three ways: 300 sweeps inside one C call (kernel + pool launch only),
one Python call per sweep, and Numba parallel=True, at each grid side given.

    python benchmarks/bench_call_path.py THREADS M [M ...]
"""
import sys, time, numpy as np, accjit as acc, numba
sys.path.insert(0, __import__("os").path.dirname(__file__))
import bench_multicore as bm
src = bm.SOURCE + r'''
void jacobi_rep(int reps, int m, const float *A, float *B) {
  for (int r = 0; r < reps; r++) {
    #pragma acc parallel loop collapse(2) present_or_copyin(A[0:m*m]) present_or_copy(B[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
  }
}
'''
lib = acc.c(src, name="r.c")
th=int(sys.argv[1]); acc.set_num_threads(th); numba.set_num_threads(th)
nbj = bm.nb_jacobi  # the same Numba kernel as bench_multicore.py
for m in [int(a) for a in sys.argv[2:]]:
    A=np.random.default_rng(0).random((m,m),dtype=np.float32); B=np.zeros_like(A)
    reps = max(10, int(3e8/(m*m)))
    lib.jacobi_rep(2, m, A, B); nbj(A,B)
    res=[]
    for trial in range(3):
        time.sleep(0.2)
        t0=time.perf_counter(); lib.jacobi_rep(reps, m, A, B); ta=(time.perf_counter()-t0)/reps
        t0=time.perf_counter(); lib.jacobi(m, A, B); 
        time.sleep(0.2)
        t0=time.perf_counter()
        for _ in range(reps): lib.jacobi(m,A,B)
        tc=(time.perf_counter()-t0)/reps
        time.sleep(0.2)
        t0=time.perf_counter()
        for _ in range(reps): nbj(A,B)
        tn=(time.perf_counter()-t0)/reps
        res.append((ta,tc,tn))
    ta,tc,tn = [min(r[k] for r in res) for k in range(3)]
    print(f"m={m} th={th} inC {ta*1e6:8.1f} us  py-loop {tc*1e6:8.1f} us  numba {tn*1e6:8.1f} us")
