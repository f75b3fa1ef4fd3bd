// <omp.h> as OpenACC programs use it: omp_get_wtime around a parallel loop (monotonic, plausible), omp_get_wtick, a host team of one (thread 0 of 1, not in parallel), omp_get_max_threads at least 1
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define N 200000

int main(void) {
    int failures = 0;
    static double a[N], b[N];
    srand(42);
    for (int i = 0; i < N; i++) a[i] = rand() / (double)RAND_MAX;
    double t0 = omp_get_wtime();
    #pragma acc parallel loop copyin(a) copyout(b)
    for (int i = 0; i < N; i++) b[i] = sqrt(a[i]) + 2.0 * a[i];
    double t1 = omp_get_wtime();
    for (int i = 0; i < N; i++)
        if (fabs(b[i] - (sqrt(a[i]) + 2.0 * a[i])) > 1e-12) { printf("FAIL b[%d]\n", i); failures++; break; }
    double t2 = omp_get_wtime();
    if (!(t1 >= t0 && t2 >= t1) || t1 - t0 > 10.0) { printf("FAIL wtime %g %g %g\n", t0, t1, t2); failures++; }
    /* busy wait: the clock advances */
    double start = omp_get_wtime(), now = start;
    long spins = 0;
    while (now - start < 0.002 && spins < 100000000L) { now = omp_get_wtime(); spins++; }
    if (now - start < 0.002) { printf("FAIL clock did not advance\n"); failures++; }
    double tick = omp_get_wtick();
    if (!(tick > 0.0 && tick < 0.01)) { printf("FAIL wtick %g\n", tick); failures++; }
    if (omp_get_thread_num() != 0 || omp_get_num_threads() != 1 || omp_in_parallel()) { printf("FAIL host team\n"); failures++; }
    if (omp_get_max_threads() < 1 || omp_get_num_procs() < 1) { printf("FAIL max threads %d procs %d\n", omp_get_max_threads(), omp_get_num_procs()); failures++; }
    return failures != 0;
}
