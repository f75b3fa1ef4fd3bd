// kernels construct: several loop nests become kernels run in order; kernels loop combined.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 4096;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)), *c = malloc(n * sizeof(double));
  srand(1);
  for (int i = 0; i < n; i++) a[i] = rand() % 1000 / 100.0;
  #pragma acc kernels copyin(a[0:n]) create(b[0:n]) copyout(c[0:n])
  {
    for (int i = 0; i < n; i++) b[i] = sqrt(a[i]);
    for (int i = 0; i < n; i++) c[i] = b[i] * b[i] - a[i];
    for (int i = 1; i < n; i++) c[i] += 1.0;
    c[0] = -5.0;
  }
  int errors = 0;
  if (c[0] != -5.0) { errors++; printf("FAIL scalar statement in kernels\n"); }
  for (int i = 1; i < n; i++)
    if (fabs(c[i] - 1.0) > 1e-12) { errors++; if (errors < 5) printf("FAIL c[%d] = %g\n", i, c[i]); }
  #pragma acc kernels loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = -a[i];
  srand(1);
  for (int i = 0; i < n; i++)
    if (a[i] != -(rand() % 1000 / 100.0)) { errors++; printf("FAIL kernels loop %d\n", i); break; }
  free(a); free(b); free(c);
  if (errors == 0) printf("kernels ok\n");
  return errors != 0;
}
