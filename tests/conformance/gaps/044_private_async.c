// Private and firstprivate subarrays on async constructs: four queues in flight; each launch's firstprivate copies hold the section's values at the construct, even when the host changes them before the queue runs it.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define Q 4
#define N 2000
#define M 16

int main(void) {
  int *coef = malloc(sizeof(int) * Q * M), *tmp = malloc(sizeof(int) * M), *out = malloc(sizeof(int) * Q * N);
  srand(42);
  for (int i = 0; i < Q * M; i++) coef[i] = rand() % 20 - 10;
  for (int k = 0; k < M; k++) tmp[k] = 1;
  int m = M;
  long spin[Q];
  double tab[4] = {1, 2, 3, 4};
  double *tout = malloc(sizeof(double) * N);
  for (int q = 0; q < Q; q++) {
    /* keep the queue busy, so the next launch waits in it while the host writes */
    #pragma acc serial async(q) copyout(spin[q:1])
    {
      long h = q;
      for (long r = 0; r < 3000000; r++) h = (h * 1103515245 + 12345) % 2147483647;
      spin[q] = h;
    }
    #pragma acc parallel loop gang async(q) firstprivate(coef[q*M:m]) private(tmp[0:m]) copyout(out[q*N:N])
    for (int i = 0; i < N; i++) {
      for (int k = 0; k < m; k++) tmp[k] = coef[q * M + k] * (i % 5);
      int s = 0;
      for (int k = 0; k < m; k++) s += tmp[k];
      out[q * N + i] = s;
    }
    /* the launch may still wait in its queue: its copies hold the values at the construct */
    for (int k = 0; k < M; k++) { coef[q * M + k] += 1000; tmp[k] = 1; }
  }
  /* a whole array in firstprivate: the same under async */
  #pragma acc parallel loop gang async(0) firstprivate(tab) copyout(tout[0:N])
  for (int i = 0; i < N; i++) tout[i] = tab[i % 4] * i;
  for (int k = 0; k < 4; k++) tab[k] = -1;
  #pragma acc wait
  for (int i = 0; i < Q * M; i++) coef[i] -= 1000;
  int errors = 0;
  for (int q = 0; q < Q; q++) {
    int cs = 0;
    for (int k = 0; k < M; k++) cs += coef[q * M + k];
    for (int i = 0; i < N; i++)
      if (out[q * N + i] != cs * (i % 5)) { if (errors++ < 5) printf("FAIL queue %d out[%d] = %d want %d\n", q, i, out[q * N + i], cs * (i % 5)); }
  }
  for (int k = 0; k < M; k++)
    if (tmp[k] != 1) { errors++; printf("FAIL host tmp changed\n"); break; }
  for (int i = 0; i < N; i++)
    if (tout[i] != (double)(i % 4 + 1) * i) { if (errors++ < 5) printf("FAIL tout[%d] = %f\n", i, tout[i]); }
  free(coef); free(tmp); free(out); free(tout);
  return errors != 0;
}
