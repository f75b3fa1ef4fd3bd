// reduction(*:) on int, long, float and double; factors chosen so results are exact.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 62;
  int f[62];
  srand(7);
  for (int i = 0; i < n; i++) f[i] = (i % 31 == 5) ? 2 : ((rand() % 5 == 0) ? -1 : 1);
  int pi = 3; long pl = 1; float pf = 1.0f; double pd = 2.0;
  #pragma acc parallel loop copyin(f) reduction(*:pi, pl, pf, pd)
  for (int i = 0; i < n; i++) {
    pi *= f[i];
    pl *= (i < 40) ? 2 : f[i];
    pf *= (f[i] == 2) ? 0.5f : (float)f[i];
    pd *= 1.0 + (i % 3 == 0) * 0.5;
  }
  int wi = 3; long wl = 1; float wf = 1.0f; double wd = 2.0;
  for (int i = 0; i < n; i++) {
    wi *= f[i]; wl *= (i < 40) ? 2 : f[i]; wf *= (f[i] == 2) ? 0.5f : (float)f[i]; wd *= 1.0 + (i % 3 == 0) * 0.5;
  }
  int errors = 0;
  if (pi != wi) { errors++; printf("FAIL int %d %d\n", pi, wi); }
  if (pl != wl || labs(pl) != (1L << 40)) { errors++; printf("FAIL long %ld %ld\n", pl, wl); }
  if (pf != wf) { errors++; printf("FAIL float %g %g\n", pf, wf); }
  if (fabs(pd - wd) > 1e-12 * wd) { errors++; printf("FAIL double %g %g\n", pd, wd); }
  if (errors == 0) printf("reduction * ok\n");
  return errors != 0;
}
