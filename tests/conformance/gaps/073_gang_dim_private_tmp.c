// The spec's example shape: num_gangs(3, 5, 7), a gang(dim:3) loop holding a gang(dim:2) loop with private(tmp); tmp is private to each gang in every dimension.
// OpenACC 3.3 §2.9.10 example (tmp private to each gang in every dimension; gangs along dimension 1 run redundantly).
// GCC 12 lacks gang grids: gcc_check.py multiplies the num_gangs values and drops gang(dim:n).
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
int main(void) {
  const int n = 23, m = 31;
  double *b = malloc(n * m * sizeof(double)), *c = malloc(n * m * sizeof(double));
  double *a = malloc(n * m * sizeof(double)), *ref = malloc(n * m * sizeof(double));
  srand(42);
  for (int p = 0; p < n * m; p++) {
    b[p] = (double)(rand() % 100) / 7.0;
    c[p] = (double)(rand() % 100) / 11.0;
    a[p] = 0.0;
  }
  double tmp = -1.0;
  #pragma acc parallel num_gangs(3, 5, 7) copyin(b[0:n * m], c[0:n * m]) copyout(a[0:n * m])
  {
    #pragma acc loop gang(dim:3)
    for (int k = 0; k < n; k++) {
      #pragma acc loop gang(dim:2) private(tmp)
      for (int j = 0; j < m; j++) {
        tmp = b[k * m + j] + c[k * m + j];
        a[k * m + j] = tmp * tmp - (double)k;
      }
    }
  }
  for (int k = 0; k < n; k++)
    for (int j = 0; j < m; j++) {
      double t = b[k * m + j] + c[k * m + j];
      ref[k * m + j] = t * t - (double)k;
    }
  int errors = 0;
  for (int p = 0; p < n * m; p++)
    if (fabs(a[p] - ref[p]) > 1e-14 * (fabs(ref[p]) + (double)(p / m) + 1.0)) {
      if (errors++ < 5) printf("FAIL a[%d] = %g, expected %g\n", p, a[p], ref[p]);
    }
  if (tmp != -1.0) { errors++; printf("FAIL the host tmp changed: %g\n", tmp); }
  free(a); free(b); free(c); free(ref);
  return errors != 0;
}
