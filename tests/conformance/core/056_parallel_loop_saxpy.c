// parallel loop: SAXPY and DAXPY with explicit data clauses against a host reference.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 10000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float)), *yref = malloc(n * sizeof(float));
  double *dx = malloc(n * sizeof(double)), *dy = malloc(n * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) {
    x[i] = (float)rand() / RAND_MAX;
    y[i] = (float)rand() / RAND_MAX - 0.5f;
    yref[i] = 2.5f * x[i] + y[i];
    dx[i] = x[i]; dy[i] = y[i];
  }
  float a = 2.5f;
  #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
  double da = -1.25;
  #pragma acc parallel loop present_or_copyin(dx[0:n]) pcopy(dy[0:n])
  for (int i = 0; i < n; i++) dy[i] += da * dx[i];
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (fabsf(y[i] - yref[i]) > 1e-6f) { errors++; if (errors < 5) printf("FAIL y[%d] %g %g\n", i, y[i], yref[i]); }
    double want = (double)(yref[i] - 2.5f * x[i]) - 1.25 * x[i];
    if (fabs(dy[i] - want) > 1e-6) { errors++; if (errors < 5) printf("FAIL dy[%d]\n", i); }
  }
  free(x); free(y); free(yref); free(dx); free(dy);
  if (errors == 0) printf("parallel loop saxpy ok\n");
  return errors != 0;
}
