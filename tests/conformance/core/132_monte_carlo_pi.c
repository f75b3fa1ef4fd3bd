// Monte Carlo estimate of pi: host rand() samples, device counting with a reduction.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 200000;
  float *xs = malloc(n * sizeof(float)), *ys = malloc(n * sizeof(float));
  srand(2024);
  for (int i = 0; i < n; i++) { xs[i] = (float)rand() / RAND_MAX; ys[i] = (float)rand() / RAND_MAX; }
  int inside = 0;
  #pragma acc parallel loop copyin(xs[0:n], ys[0:n]) reduction(+:inside)
  for (int i = 0; i < n; i++) inside += xs[i] * xs[i] + ys[i] * ys[i] <= 1.0f;
  int want = 0;
  for (int i = 0; i < n; i++) want += xs[i] * xs[i] + ys[i] * ys[i] <= 1.0f;
  double pi = 4.0 * inside / n;
  int errors = 0;
  if (inside != want) { errors++; printf("FAIL count %d %d\n", inside, want); }
  if (fabs(pi - 3.14159265) > 0.02) { errors++; printf("FAIL estimate %g\n", pi); }
  printf("pi ~ %.4f\n", pi);
  free(xs); free(ys);
  if (errors == 0) printf("monte carlo ok\n");
  return errors != 0;
}
