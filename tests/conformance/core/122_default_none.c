// default(none): every variable used in the region is listed in a data or private clause.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 2500;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  double s = 3.0, total = 0.0;
  for (int i = 0; i < n; i++) a[i] = i * 0.001;
  #pragma acc parallel loop default(none) copyin(a[0:n], s) copyout(b[0:n]) firstprivate(n)
  for (int i = 0; i < n; i++) b[i] = s * a[i];
  #pragma acc parallel loop default(none) present_or_copyin(b[0:n]) reduction(+:total) firstprivate(n)
  for (int i = 0; i < n; i++) total += b[i];
  int errors = 0;
  double want = 0;
  for (int i = 0; i < n; i++) {
    if (b[i] != 3.0 * (i * 0.001)) { errors++; printf("FAIL b[%d]\n", i); break; }
    want += b[i];
  }
  if (total < want - 1e-9 || total > want + 1e-9) { errors++; printf("FAIL total %g %g\n", total, want); }
  int k = 0;
  #pragma acc kernels default(none) copy(k)
  {
    k += 41;
    k++;
  }
  if (k != 42) { errors++; printf("FAIL kernels default(none) %d\n", k); }
  free(a); free(b);
  if (errors == 0) printf("default(none) ok\n");
  return errors != 0;
}
