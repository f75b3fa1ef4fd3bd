// reduction(+:h[0:nb]) on a malloc'd pointer: a histogram where every gang updates the same bins.
// GCC 12 lacks the feature: reductions of array elements and sections end in an internal compiler error
// (gcc_check.py reports a compile failure); the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 50000, nb = 37;
  int *v = malloc(n * sizeof(int));
  long *h = malloc(nb * sizeof(long));
  long *w = malloc(nb * sizeof(long));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  for (int b = 0; b < nb; b++) { h[b] = b; w[b] = b; }
  #pragma acc parallel loop num_gangs(8) copyin(v[0:n]) copy(h[0:nb]) reduction(+:h[0:nb])
  for (int i = 0; i < n; i++) h[v[i] % nb] += 1 + (v[i] & 3);
  for (int i = 0; i < n; i++) w[v[i] % nb] += 1 + (v[i] & 3);
  int errors = 0;
  for (int b = 0; b < nb; b++)
    if (h[b] != w[b]) { errors++; printf("FAIL bin %d %ld %ld\n", b, h[b], w[b]); }
  // A section that starts at an offset, float data, gang + vector loop.
  float *f = malloc(64 * sizeof(float));
  float *g = malloc(64 * sizeof(float));
  for (int b = 0; b < 64; b++) { f[b] = 0.25f * b; g[b] = 0.25f * b; }
  #pragma acc parallel loop gang vector copyin(v[0:n]) reduction(+:f[10:20])
  for (int i = 0; i < n; i++) f[10 + v[i] % 20] += (float)(v[i] % 5) * 0.5f;
  for (int i = 0; i < n; i++) g[10 + v[i] % 20] += (float)(v[i] % 5) * 0.5f;
  for (int b = 0; b < 64; b++)
    if (f[b] != g[b]) { errors++; printf("FAIL float bin %d %g %g\n", b, f[b], g[b]); }
  free(v); free(h); free(w); free(f); free(g);
  if (errors == 0) printf("histogram ok\n");
  return errors != 0;
}
