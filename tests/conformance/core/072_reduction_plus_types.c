// reduction(+:) on int, long, float and double scalars, with a nonzero initial value.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 20000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 201 - 100;
  int si = 5; long sl = -1000000000000L; float sf = 0.5f; double sd = 10.0;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:si) reduction(+:sl, sf) reduction(+:sd)
  for (int i = 0; i < n; i++) {
    si += v[i];
    sl += (long)v[i] * 1000003L;
    sf += (float)(v[i] % 8) * 0.125f;
    sd += v[i] * 0.001;
  }
  int wi = 5; long wl = -1000000000000L; double wf = 0.5, wd = 10.0;
  for (int i = 0; i < n; i++) { wi += v[i]; wl += (long)v[i] * 1000003L; wf += (v[i] % 8) * 0.125; wd += v[i] * 0.001; }
  int errors = 0;
  if (si != wi) { errors++; printf("FAIL int %d %d\n", si, wi); }
  if (sl != wl) { errors++; printf("FAIL long %ld %ld\n", sl, wl); }
  if (fabs(sf - wf) > 1e-3 * (1 + fabs(wf))) { errors++; printf("FAIL float %g %g\n", sf, wf); }
  if (fabs(sd - wd) > 1e-9) { errors++; printf("FAIL double %.12g %.12g\n", sd, wd); }
  free(v);
  if (errors == 0) printf("reduction + ok\n");
  return errors != 0;
}
