// reduction(max:) and reduction(min:) on int, long, float and double with random data.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 15000;
  int *v = malloc(n * sizeof(int));
  srand(123);
  for (int i = 0; i < n; i++) v[i] = rand() - RAND_MAX / 2;
  int imax = v[0], imin = v[0];
  long lmax = -1, lmin = 1;
  float fmx = -1e30f, fmn = 1e30f;
  double dmx = -1e300, dmn = 1e300;
  #pragma acc parallel loop copyin(v[0:n]) reduction(max:imax, lmax, fmx, dmx) reduction(min:imin, lmin, fmn, dmn)
  for (int i = 0; i < n; i++) {
    imax = v[i] > imax ? v[i] : imax;
    imin = v[i] < imin ? v[i] : imin;
    long l = (long)v[i] * 4096;
    if (l > lmax) lmax = l;
    if (l < lmin) lmin = l;
    float f = (float)(v[i] % 1000) / 7.0f;
    if (f > fmx) fmx = f;
    if (f < fmn) fmn = f;
    double d = v[i] * 1e-3;
    if (d > dmx) dmx = d;
    if (d < dmn) dmn = d;
  }
  int wimax = v[0], wimin = v[0];
  float wfmx = -1e30f, wfmn = 1e30f;
  for (int i = 0; i < n; i++) {
    if (v[i] > wimax) wimax = v[i];
    if (v[i] < wimin) wimin = v[i];
    float f = (float)(v[i] % 1000) / 7.0f;
    if (f > wfmx) wfmx = f;
    if (f < wfmn) wfmn = f;
  }
  int errors = 0;
  if (imax != wimax || imin != wimin) { errors++; printf("FAIL int %d %d\n", imax, imin); }
  if (lmax != (long)wimax * 4096 || lmin != (long)wimin * 4096) { errors++; printf("FAIL long\n"); }
  if (fmx != wfmx || fmn != wfmn) { errors++; printf("FAIL float %g %g\n", fmx, fmn); }
  if (dmx != wimax * 1e-3 || dmn != wimin * 1e-3) { errors++; printf("FAIL double\n"); }
  free(v);
  if (errors == 0) printf("reduction max/min ok\n");
  return errors != 0;
}
