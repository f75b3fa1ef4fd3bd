// A kernels region with scalar code between loops; scalars flow from one loop to the next.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 4000;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  srand(8);
  for (int i = 0; i < n; i++) x[i] = (double)rand() / RAND_MAX;
  double mean = 0, var = 0;
  #pragma acc kernels copyin(x[0:n]) copyout(y[0:n]) copy(mean, var)
  {
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i];
    mean = s / n;
    for (int i = 0; i < n; i++) y[i] = x[i] - mean;
    double v = 0;
    for (int i = 0; i < n; i++) v += y[i] * y[i];
    var = v / n;
  }
  double ws = 0;
  for (int i = 0; i < n; i++) ws += x[i];
  double wm = ws / n, wv = 0;
  for (int i = 0; i < n; i++) wv += (x[i] - wm) * (x[i] - wm);
  wv /= n;
  int errors = 0;
  if (fabs(mean - wm) > 1e-12 || fabs(var - wv) > 1e-12) { errors++; printf("FAIL mean/var %g %g %g %g\n", mean, wm, var, wv); }
  for (int i = 0; i < n; i++) if (fabs(y[i] - (x[i] - wm)) > 1e-12) { errors++; printf("FAIL y[%d]\n", i); break; }
  if (fabs(var - 1.0 / 12) > 0.01) { errors++; printf("FAIL uniform variance %g\n", var); }
  free(x); free(y);
  if (errors == 0) printf("kernels mixed region ok\n");
  return errors != 0;
}
