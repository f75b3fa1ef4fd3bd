// Micro-benchmark style: clock() and time() around repeated regions; printed rates, checked results.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REPS 20

int main(void) {
  const int n = 20000;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = 1.0f; b[i] = 0.0f; }
  time_t t0 = time(NULL);
  clock_t c0 = clock();
  #pragma acc data copyin(a[0:n]) copy(b[0:n])
  for (int r = 0; r < REPS; r++) {
    #pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) b[i] += a[i] * 0.5f;
  }
  clock_t c1 = clock();
  time_t t1 = time(NULL);
  double secs = (double)(c1 - c0) / CLOCKS_PER_SEC;
  printf("%d x %d updates in %.4f s cpu, %ld s wall\n", REPS, n, secs, (long)(t1 - t0));
  int errors = 0;
  if (secs < 0 || t1 < t0) { errors++; printf("FAIL clocks went backwards\n"); }
  for (int i = 0; i < n; i++) if (b[i] != REPS * 0.5f) { errors++; printf("FAIL b[%d] = %g\n", i, b[i]); break; }
  free(a); free(b);
  if (errors == 0) printf("timing-style run ok\n");
  return errors != 0;
}
