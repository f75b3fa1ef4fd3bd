// firstprivate(c[0:m]) on a pointer: every gang starts from the host values, and its gang-redundant update of its copy is not seen by other gangs.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 4096
#define M 16

int main(void) {
  double *c = malloc(sizeof(double) * M);
  double *x = malloc(sizeof(double) * N);
  double *y = malloc(sizeof(double) * N);
  srand(42);
  for (int k = 0; k < M; k++) c[k] = (double)(rand() % 100) / 10.0 + 1.0;
  for (int i = 0; i < N; i++) x[i] = (double)(rand() % 1000) / 1000.0;
  int m = M;
  #pragma acc parallel num_gangs(32) firstprivate(c[0:m]) copyin(x[0:N]) copyout(y[0:N])
  {
    /* gang-redundant: each gang doubles its own copy once */
    for (int k = 0; k < m; k++) c[k] = 2.0 * c[k];
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      double p = 0.0;                      /* Horner: polynomial with coefficients 2*c */
      for (int k = m - 1; k >= 0; k--) p = p * x[i] + c[k];
      y[i] = p;
    }
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    double p = 0.0;
    for (int k = M - 1; k >= 0; k--) p = p * x[i] + 2.0 * c[k];
    if (fabs(y[i] - p) > 1e-9 * fabs(p)) { if (errors++ < 5) printf("FAIL y[%d] = %g want %g\n", i, y[i], p); }
  }
  /* the host copy keeps its values */
  srand(42);
  for (int k = 0; k < M; k++) {
    double want = (double)(rand() % 100) / 10.0 + 1.0;
    if (c[k] != want) { errors++; printf("FAIL host c[%d] = %g want %g\n", k, c[k], want); }
  }
  free(c); free(x); free(y);
  return errors != 0;
}
