// Host and device phases alternate on the same arrays with update directives in between.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 2048;
  long *a = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) a[i] = i;
  int errors = 0;
  #pragma acc data copy(a[0:n])
  {
    for (int round = 1; round <= 4; round++) {
      #pragma acc parallel loop present(a[0:n])
      for (int i = 0; i < n; i++) a[i] = a[i] * 2 + round;
      #pragma acc update self(a[0:n])
      long host_sum = 0;
      for (int i = 0; i < n; i++) { a[i] -= round; host_sum += a[i]; }    /* host phase */
      #pragma acc update device(a[0:n])
      long s = 0;
      #pragma acc parallel loop present(a[0:n]) reduction(+:s)
      for (int i = 0; i < n; i++) s += a[i];
      if (s != host_sum) { errors++; printf("FAIL round %d: %ld %ld\n", round, s, host_sum); }
    }
  }
  for (int i = 0; i < n; i++) if (a[i] != (long)i * 16) { errors++; printf("FAIL a[%d] = %ld\n", i, a[i]); break; }
  free(a);
  if (errors == 0) printf("host/device phases ok\n");
  return errors != 0;
}
