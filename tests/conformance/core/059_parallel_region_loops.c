// One parallel region holding several gang loops. Gangs do not synchronise between loops,
// so the loops use the same gang(static:16) schedule: the spec gives same-trip-count loops with
// the same static argument the same iteration-to-gang mapping, so each y[i] stays in one gang.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 5000;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  srand(3);
  for (int i = 0; i < n; i++) x[i] = rand() / (double)RAND_MAX;
  double norm = 0.0;
  #pragma acc parallel copyin(x[0:n]) create(y[0:n]) reduction(+:norm)
  {
    #pragma acc loop gang(static:16) vector
    for (int i = 0; i < n; i++) y[i] = 2.0 * x[i];
    #pragma acc loop gang(static:16) vector
    for (int i = 0; i < n; i++) y[i] = y[i] * y[i];
    #pragma acc loop gang(static:16) vector reduction(+:norm)
    for (int i = 0; i < n; i++) norm += y[i];
  }
  double want = 0.0;
  for (int i = 0; i < n; i++) want += 4.0 * x[i] * x[i];
  int errors = 0;
  if (fabs(norm - want) > 1e-9 * want) { errors++; printf("FAIL norm %.15g want %.15g\n", norm, want); }
  free(x); free(y);
  if (errors == 0) printf("parallel region with loops ok\n");
  return errors != 0;
}
