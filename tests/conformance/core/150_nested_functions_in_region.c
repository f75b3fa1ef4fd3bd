// A parallel loop calling a chain of routine seq helpers with struct arguments and returns.
#include <stdio.h>
#include <math.h>

typedef struct { double re, im; } cplx;

#pragma acc routine seq
static cplx cmul(cplx a, cplx b) { cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; return r; }
#pragma acc routine seq
static cplx zpow_n(cplx z, int n) { cplx r = {1, 0}; for (int i = 0; i < n; i++) r = cmul(r, z); return r; }
#pragma acc routine seq
static double cnorm(cplx z) { return sqrt(z.re * z.re + z.im * z.im); }

int main(void) {
  const int n = 360;
  double mag[360], ang[360];
  #pragma acc parallel loop copyout(mag, ang)
  for (int k = 0; k < n; k++) {
    double t = k * 3.14159265358979323846 / 180.0;
    cplx z = {0.9 * cos(t), 0.9 * sin(t)};
    cplx w = zpow_n(z, 5);
    mag[k] = cnorm(w);
    ang[k] = atan2(w.im, w.re);
  }
  int errors = 0;
  for (int k = 0; k < n; k++) {
    if (fabs(mag[k] - pow(0.9, 5)) > 1e-12) { errors++; printf("FAIL mag[%d]\n", k); break; }
    double want = remainder(5 * k * 3.14159265358979323846 / 180.0, 2 * 3.14159265358979323846);
    double d = fabs(ang[k] - want);
    if (d > 1e-9 && fabs(d - 2 * 3.14159265358979323846) > 1e-9) { errors++; printf("FAIL ang[%d] %g %g\n", k, ang[k], want); break; }
  }
  if (errors == 0) printf("routine chain ok\n");
  return errors != 0;
}
