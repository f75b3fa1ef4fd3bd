// long double in compute regions: a reduction(+:) and elementwise long double arithmetic.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 5000;
  long double *v = malloc(n * sizeof(long double));
  double *d = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { v[i] = 1.0L / (i + 1); d[i] = 0; }
  long double s = 0.0L;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) s += v[i];
  long double mx = 0.0L;
  #pragma acc parallel loop copyin(v[0:n]) reduction(max:mx)
  for (int i = 0; i < n; i++) if (v[i] * (i % 10) > mx) mx = v[i] * (i % 10);
  #pragma acc parallel loop copyin(v[0:n]) copyout(d[0:n])
  for (int i = 0; i < n; i++) d[i] = (double)(v[i] * v[i] * (i + 1));
  long double w = 0.0L, wmx = 0.0L;
  for (int i = 0; i < n; i++) { w += v[i]; if (v[i] * (i % 10) > wmx) wmx = v[i] * (i % 10); }
  int errors = 0;
  if (fabsl(s - w) > 1e-12L) { errors++; printf("FAIL sum %.20Lg %.20Lg\n", s, w); }
  if (fabsl(s - 9.094508852984436L) > 1e-9L) { errors++; printf("FAIL harmonic(5000) %.15Lg\n", s); }
  if (mx != wmx) { errors++; printf("FAIL max\n"); }
  for (int i = 0; i < n; i++) if (fabs(d[i] - 1.0 / (i + 1)) > 1e-15) { errors++; printf("FAIL d[%d]\n", i); break; }
  free(v); free(d);
  if (errors == 0) printf("long double reduction ok\n");
  return errors != 0;
}
