// reduction on the parallel and serial constructs themselves (gang-level), with loops inside.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 8000;
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = (i * 13) % 29 - 14;
  long sum = 0; int mx = -1000;
  #pragma acc parallel copyin(v[0:n]) reduction(+:sum) reduction(max:mx)
  {
    #pragma acc loop gang reduction(+:sum) reduction(max:mx)
    for (int i = 0; i < n; i++) { sum += v[i]; if (v[i] > mx) mx = v[i]; }
  }
  long want = 0;
  for (int i = 0; i < n; i++) want += v[i];
  int errors = 0;
  if (sum != want || mx != 14) { errors++; printf("FAIL parallel reduction %ld %ld %d\n", sum, want, mx); }
  int gangs_seen = 0;
  #pragma acc parallel num_gangs(6) reduction(+:gangs_seen)
  {
    gangs_seen += 1;                  /* gang-redundant: every gang adds its own 1 */
  }
#ifdef ACCJIT_GCC_VALIDATION
  int want_gangs = 1;                 /* gcc's host fallback runs one gang */
#else
  int want_gangs = 6;
#endif
  if (gangs_seen != want_gangs) { errors++; printf("FAIL gang-redundant reduction %d\n", gangs_seen); }
  double prod = 1.0;
  #pragma acc serial reduction(*:prod)
  {
    for (int i = 1; i <= 10; i++) prod *= i;
  }
  if (prod != 3628800.0) { errors++; printf("FAIL serial reduction %g\n", prod); }
  free(v);
  if (errors == 0) printf("reduction on compute constructs ok\n");
  return errors != 0;
}
