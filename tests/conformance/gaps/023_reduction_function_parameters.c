// reductions on sections of pointer parameters inside a called function, and on a global struct member, called several times.
// GCC 12 lacks the feature: it does not parse a member in a reduction clause (g_tot.count); the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

struct totals { long count; double weight; };
struct totals g_tot;

static void bin(int n, const int *restrict v, int nb, long *restrict h, double *restrict wsum) {
  #pragma acc parallel loop copyin(v[0:n]) copy(h[0:nb], wsum[0:nb]) reduction(+:h[0:nb], wsum[0:nb])
  for (int i = 0; i < n; i++) {
    h[v[i] % nb] += 1;
    wsum[v[i] % nb] += (v[i] % 16) * 0.0625;
  }
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:g_tot.count)
  for (int i = 0; i < n; i++) g_tot.count += v[i] % 2;
}

int main(void) {
  const int n = 12000, nb = 19;
  int *v = malloc(n * sizeof(int));
  long *h = calloc(nb, sizeof(long)), *wh = calloc(nb, sizeof(long));
  double *ws = calloc(nb, sizeof(double)), *ww = calloc(nb, sizeof(double));
  srand(42);
  long wc = 0;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < n; i++) v[i] = rand();
    bin(n, v, nb, h, ws);
    for (int i = 0; i < n; i++) { wh[v[i] % nb] += 1; ww[v[i] % nb] += (v[i] % 16) * 0.0625; wc += v[i] % 2; }
  }
  int errors = 0;
  for (int b = 0; b < nb; b++) if (h[b] != wh[b] || ws[b] != ww[b]) { errors++; printf("FAIL bin %d %ld %ld %g %g\n", b, h[b], wh[b], ws[b], ww[b]); }
  if (g_tot.count != wc || g_tot.weight != 0.0) { errors++; printf("FAIL global member %ld %ld\n", g_tot.count, wc); }
  free(v); free(h); free(wh); free(ws); free(ww);
  if (errors == 0) printf("reductions in functions ok\n");
  return errors != 0;
}
