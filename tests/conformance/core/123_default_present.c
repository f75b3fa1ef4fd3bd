// default(present): arrays used in the region must already be present (from enter data).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  #pragma acc enter data copyin(a[0:n], b[0:n])
  #pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) b[i] = a[i] * 3;
  #pragma acc kernels default(present)
  {
    for (int i = 0; i < n; i++) a[i] = b[i] - a[i];
  }
  #pragma acc exit data copyout(a[0:n], b[0:n])
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (b[i] != 3 * i || a[i] != 2 * i) { errors++; printf("FAIL %d: %d %d\n", i, a[i], b[i]); break; }
  free(a); free(b);
  if (errors == 0) printf("default(present) ok\n");
  return errors != 0;
}
