// private scalars on loop and parallel constructs: each iteration/gang uses its own copy.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 4000;
  int *out = malloc(n * sizeof(int));
  int t = -99;                   /* host value must be unaffected */
  #pragma acc parallel loop private(t) copyout(out[0:n])
  for (int i = 0; i < n; i++) {
    t = i * 2;
    t += 1;
    out[i] = t * t;
  }
  int errors = 0;
  if (t != -99) { errors++; printf("FAIL host copy changed: %d\n", t); }
  for (int i = 0; i < n; i++) if (out[i] != (2 * i + 1) * (2 * i + 1)) { errors++; printf("FAIL out[%d]\n", i); break; }
  double scratch = 1.0;
  #pragma acc parallel num_gangs(4) private(scratch) copy(out[0:n])
  {
    scratch = 0.5;
    #pragma acc loop gang
    for (int i = 0; i < n; i++) out[i] = (int)(scratch * 4) + i;
  }
  if (scratch != 1.0) { errors++; printf("FAIL parallel private changed host\n"); }
  for (int i = 0; i < n; i++) if (out[i] != i + 2) { errors++; printf("FAIL gang private %d\n", i); break; }
  int a = 0, b = 0;
  #pragma acc parallel loop gang vector private(a, b) copy(out[0:n])
  for (int i = 0; i < n; i++) { a = i % 5; b = i / 5; out[i] = a + b; }
  for (int i = 0; i < n; i++) if (out[i] != i % 5 + i / 5) { errors++; printf("FAIL private list %d\n", i); break; }
  free(out);
  if (errors == 0) printf("private scalars ok\n");
  return errors != 0;
}
