// _Pragma("acc ...") inside macros produces the same directives as #pragma acc.
#include <stdio.h>
#include <stdlib.h>

/* a, b are pointers: their data needs clauses on a device without shared memory. */
#define PAR_LOOP _Pragma("acc parallel loop copyin(a[0:n]) copyout(b[0:n])")
#define ACC(x) _Pragma(#x)
#define SCALE_LOOP(n, a, s) \
  _Pragma("acc parallel loop copy(a[0:n])") \
  for (int i = 0; i < (n); i++) (a)[i] *= (s);

int main(void) {
  int n = 1000, errors = 0;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *ref = malloc(n * sizeof *ref);
  srand(5);
  for (int i = 0; i < n; i++) { a[i] = rand() % 100 / 10.0f; b[i] = 0; ref[i] = a[i] * 3.0f; }
  PAR_LOOP
  for (int i = 0; i < n; i++) b[i] = a[i] + 1.0f;
  SCALE_LOOP(n, a, 3.0f)
  double sum = 0;
  ACC(acc parallel loop reduction(+:sum) copyin(b[0:n]))
  for (int i = 0; i < n; i++) sum += b[i];
  double want = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != ref[i]) { errors++; printf("FAIL a[%d]\n", i); break; }
    want += ref[i] / 3.0f + 1.0f;
  }
  if (sum < want - 1e-3 || sum > want + 1e-3) { errors++; printf("FAIL sum %g want %g\n", sum, want); }
  free(a); free(b); free(ref);
  if (errors == 0) printf("_Pragma ok\n");
  return errors != 0;
}
