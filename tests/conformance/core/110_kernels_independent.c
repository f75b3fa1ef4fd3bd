// Loops in kernels with and without independent: dependent loops must stay correct.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  long *a = malloc(n * sizeof(long)), *b = malloc(n * sizeof(long)), *c = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) { a[i] = i % 13; b[i] = 0; c[i] = 1; }
  #pragma acc kernels copy(a[0:n], b[0:n], c[0:n])
  {
    #pragma acc loop independent
    for (int i = 0; i < n; i++) b[i] = a[i] * 2;
    for (int i = 1; i < n; i++) c[i] = c[i - 1] + b[i];     /* dependence: no independent */
    #pragma acc loop independent
    for (int i = 0; i < n; i++) a[i] = c[i] - b[i];
    for (int i = 0; i < n; i++) a[i] += 1;                   /* independent, but not asserted */
  }
  int errors = 0;
  long run = 1;
  for (int i = 0; i < n; i++) {
    long bi = (i % 13) * 2;
    if (i > 0) run += bi;
    if (b[i] != bi || c[i] != run || a[i] != run - bi + 1) { errors++; printf("FAIL at %d: %ld %ld %ld\n", i, a[i], b[i], c[i]); break; }
  }
  free(a); free(b); free(c);
  if (errors == 0) printf("kernels independent ok\n");
  return errors != 0;
}
