// Several reduction variables and operators on one loop: statistics of random data.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 12000;
  double *x = malloc(n * sizeof(double));
  srand(77);
  for (int i = 0; i < n; i++) x[i] = (double)rand() / RAND_MAX * 10.0 - 3.0;
  double s = 0, s2 = 0, mx = -1e9, mn = 1e9;
  int neg = 0;
  #pragma acc parallel loop copyin(x[0:n]) reduction(+:s, s2, neg) reduction(max:mx) reduction(min:mn)
  for (int i = 0; i < n; i++) {
    s += x[i];
    s2 += x[i] * x[i];
    if (x[i] > mx) mx = x[i];
    if (x[i] < mn) mn = x[i];
    if (x[i] < 0) neg++;
  }
  double ws = 0, ws2 = 0, wmx = -1e9, wmn = 1e9;
  int wneg = 0;
  for (int i = 0; i < n; i++) {
    ws += x[i]; ws2 += x[i] * x[i];
    wmx = fmax(wmx, x[i]); wmn = fmin(wmn, x[i]); wneg += x[i] < 0;
  }
  int errors = 0;
  if (fabs(s - ws) > 1e-8 * fabs(ws) || fabs(s2 - ws2) > 1e-8 * ws2) { errors++; printf("FAIL sums\n"); }
  if (mx != wmx || mn != wmn || neg != wneg) { errors++; printf("FAIL extrema/count\n"); }
  double mean = s / n, var = s2 / n - mean * mean;
  if (fabs(mean - 2.0) > 0.2 || fabs(var - 100.0 / 12.0) > 0.5) { errors++; printf("FAIL statistics %g %g\n", mean, var); }
  free(x);
  if (errors == 0) printf("multiple reductions ok\n");
  return errors != 0;
}
