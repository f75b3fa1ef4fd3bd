// the same section and element reductions launched many times in a time-step loop (private copies released each launch), inside a data region.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 2000, nb = 32, steps = 200;
  int *v = malloc(n * sizeof(int));
  long *h = calloc(nb, sizeof(long)), *w = calloc(nb, sizeof(long));
  double e[3] = { 0.0, 0.0, 0.0 }, we = 0.0;
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  #pragma acc data copyin(v[0:n]) copy(h[0:nb], e)
  for (int t = 0; t < steps; t++) {
    #pragma acc parallel loop reduction(+:h[0:nb], e[1])
    for (int i = 0; i < n; i++) {
      h[(v[i] + t) % nb] += 1;
      e[1] += ((v[i] + t) % 8) * 0.125;
    }
  }
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++) { w[(v[i] + t) % nb] += 1; we += ((v[i] + t) % 8) * 0.125; }
  int errors = 0;
  for (int b = 0; b < nb; b++) if (h[b] != w[b]) { errors++; printf("FAIL bin %d %ld %ld\n", b, h[b], w[b]); }
  if (e[1] != we || e[0] != 0.0 || e[2] != 0.0) { errors++; printf("FAIL e %g %g\n", e[1], we); }
  free(v); free(h); free(w);
  if (errors == 0) printf("repeated reductions ok\n");
  return errors != 0;
}
