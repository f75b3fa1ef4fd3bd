// Combined constructs: parallel loop, kernels loop, serial loop with data and loop clauses.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 2048;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = (i * 37) % 101;
  long s1 = 0, s2 = 0, s3 = 0;
  #pragma acc parallel loop gang vector copyin(a[0:n]) copyout(b[0:n]) reduction(+:s1)
  for (int i = 0; i < n; i++) { b[i] = a[i] * 2; s1 += a[i]; }
  #pragma acc kernels loop independent copy(b[0:n]) reduction(+:s2)
  for (int i = 0; i < n; i++) { b[i] -= 1; s2 += b[i]; }
  #pragma acc serial loop copyin(b[0:n]) reduction(+:s3)
  for (int i = 0; i < n; i++) s3 += b[i] % 7;
  long w1 = 0, w2 = 0, w3 = 0;
  for (int i = 0; i < n; i++) { w1 += a[i]; w2 += a[i] * 2 - 1; w3 += (a[i] * 2 - 1) % 7; }
  int errors = 0;
  if (s1 != w1 || s2 != w2 || s3 != w3) { errors++; printf("FAIL sums %ld/%ld %ld/%ld %ld/%ld\n", s1, w1, s2, w2, s3, w3); }
  for (int i = 0; i < n; i++) if (b[i] != a[i] * 2 - 1) { errors++; printf("FAIL b[%d]\n", i); break; }
  free(a); free(b);
  if (errors == 0) printf("combined constructs ok\n");
  return errors != 0;
}
