// #pragma omp lines are ignored silently (no stderr output) in a compute program: omp parallel for, omp simd, omp atomic, omp critical next to acc loops and reductions. GCC 12 (-fopenacc without -fopenmp) ignores them too but warns under -Wall (-Wunknown-pragmas)
// gcc-flags: -Wno-unknown-pragmas
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 4096

int main(void) {
    int failures = 0;
    static float x[N], y[N];
    srand(42);
    for (int i = 0; i < N; i++) { x[i] = rand() / (float)RAND_MAX; y[i] = (float)(i % 17); }
    double sum = 0.0;
    #pragma omp parallel for reduction(+:sum)
    #pragma acc parallel loop reduction(+:sum) copy(y) copyin(x)
    for (int i = 0; i < N; i++) {
        #pragma omp atomic
        y[i] += 2.0f * x[i];
        sum += y[i];
    }
    double ref = 0.0;
    for (int i = 0; i < N; i++) ref += (float)(i % 17) + 2.0f * x[i];
    if (fabs(sum - ref) > 1e-3 * fabs(ref)) { printf("FAIL sum %f vs %f\n", sum, ref); failures++; }
    int count = 0;
    #pragma omp parallel
    {
        #pragma omp critical
        count++;
    }
    if (count != 1) { printf("FAIL omp parallel region ran %d times\n", count); failures++; }
    #pragma omp simd
    for (int i = 0; i < N; i++) x[i] = y[i] * 0.5f;
    for (int i = 0; i < N; i++)
        if (x[i] != y[i] * 0.5f) { printf("FAIL simd loop\n"); failures++; break; }
    return failures != 0;
}
