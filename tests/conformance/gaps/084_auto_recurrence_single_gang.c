// A first-order recurrence a[i] = c*a[i-1] + b[i] under `loop auto` in a one-gang parallel region, and as a top-level kernels loop: both must keep the sequential order.
// OpenACC 3.3 §2.9.7 (auto) and §2.5.3 (a kernels loop without independent is auto).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 20000;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)), *k = malloc(n * sizeof(double));
  double *ref = malloc(n * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) { b[i] = (double)(rand() % 1000) / 1000.0; a[i] = k[i] = ref[i] = 0.0; }
  const double c = 0.75;
  #pragma acc parallel num_gangs(1) copyin(b[0:n]) copy(a[0:n])
  {
    #pragma acc loop auto
    for (int i = 1; i < n; i++) a[i] = c * a[i - 1] + b[i];
  }
  #pragma acc kernels copyin(b[0:n]) copy(k[0:n])
  for (int i = 1; i < n; i++) k[i] = c * k[i - 1] + b[i];
  for (int i = 1; i < n; i++) ref[i] = c * ref[i - 1] + b[i];
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (fabs(a[i] - ref[i]) > 1e-12 || fabs(k[i] - ref[i]) > 1e-12) {
      if (errors++ < 5) printf("FAIL i=%d a=%.15g k=%.15g expected %.15g\n", i, a[i], k[i], ref[i]);
    }
  free(a); free(b); free(k); free(ref);
  return errors != 0;
}
