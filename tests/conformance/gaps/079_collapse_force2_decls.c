// collapse(force:2) over loops that are not tightly nested: declarations between the loops compute per-row values the inner body uses.
// OpenACC 3.3 §2.9.1: with force, intervening code may run as many times as the collapse needs (here once per collapsed iteration).
// GCC 12 has no forced collapse ("not enough perfectly nested loops"): gcc_check.py drops collapse(force:n), so gcc
// associates only the outer loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 57, m = 83;
  double *a = malloc(n * m * sizeof(double)), *x = malloc(n * sizeof(double)), *y = malloc(m * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) x[i] = (double)(rand() % 1000) / 100.0;
  for (int j = 0; j < m; j++) y[j] = (double)(rand() % 1000) / 300.0;
  #pragma acc parallel loop collapse(force:2) copyin(x[0:n], y[0:m]) copyout(a[0:n * m])
  for (int i = 0; i < n; i++) {
    double xi = x[i] * 2.0;
    int row = i * m;
    for (int j = 0; j < m; j++)
      a[row + j] = xi * y[j] + sqrt((double)(i + j));
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double e = x[i] * 2.0 * y[j] + sqrt((double)(i + j));
      if (fabs(a[i * m + j] - e) > 1e-12) {
        if (errors++ < 5) printf("FAIL a[%d][%d] = %g, expected %g\n", i, j, a[i * m + j], e);
      }
    }
  free(a); free(x); free(y);
  return errors != 0;
}
