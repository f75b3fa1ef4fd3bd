// Matrix multiply: collapse(2) gang/vector outer loops with a seq reduction inner loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 48, m = 40, p = 56;
  double *a = malloc(n * m * sizeof(double)), *b = malloc(m * p * sizeof(double)), *c = malloc(n * p * sizeof(double));
  srand(42);
  for (int i = 0; i < n * m; i++) a[i] = (double)rand() / RAND_MAX - 0.5;
  for (int i = 0; i < m * p; i++) b[i] = (double)rand() / RAND_MAX - 0.5;
  #pragma acc parallel loop collapse(2) copyin(a[0:n*m], b[0:m*p]) copyout(c[0:n*p])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0.0;
      #pragma acc loop seq
      for (int k = 0; k < m; k++) s += a[i * m + k] * b[k * p + j];
      c[i * p + j] = s;
    }
  int errors = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += a[i * m + k] * b[k * p + j];
      if (fabs(c[i * p + j] - s) > 1e-12) { if (errors++ < 5) printf("FAIL c[%d][%d]\n", i, j); }
    }
  #pragma acc parallel loop gang copyin(a[0:n*m], b[0:m*p]) copy(c[0:n*p])
  for (int i = 0; i < n; i++) {
    #pragma acc loop vector
    for (int j = 0; j < p; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += a[i * m + k] * b[k * p + j];
      c[i * p + j] -= s;
    }
  }
  for (int i = 0; i < n * p; i++) if (fabs(c[i]) > 1e-12) { errors++; printf("FAIL second product %d\n", i); break; }
  free(a); free(b); free(c);
  if (errors == 0) printf("matmul ok\n");
  return errors != 0;
}
