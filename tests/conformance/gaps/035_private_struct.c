// Structs with array members: firstprivate(s) copies the whole struct into every gang, private(w) gives each gang its own; loop private(acc) on a gang loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 2500

struct poly { int degree; double coef[8]; double scale; };
struct work { double pow[8]; int count; };

int main(void) {
  struct poly s;
  struct work w = { {0}, -5 };
  double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N), *z = malloc(sizeof(double) * N);
  srand(42);
  s.degree = 7;
  s.scale = 1.5;
  for (int k = 0; k < 8; k++) s.coef[k] = (double)(rand() % 21 - 10) / 4.0;
  for (int i = 0; i < N; i++) x[i] = (double)(rand() % 2000) / 1000.0 - 1.0;
  #pragma acc parallel num_gangs(20) firstprivate(s) private(w) copyin(x[0:N]) copyout(y[0:N])
  {
    s.scale = s.scale * 2.0;           /* each gang rescales its own copy once */
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      w.pow[0] = 1.0;
      for (int k = 1; k <= s.degree; k++) w.pow[k] = w.pow[k - 1] * x[i];
      double p = 0;
      for (int k = 0; k <= s.degree; k++) p += s.coef[k] * w.pow[k];
      y[i] = p * s.scale;
    }
  }
  struct work acc;
  #pragma acc parallel loop gang private(acc) copyin(x[0:N]) copyout(z[0:N])
  for (int i = 0; i < N; i++) {
    acc.count = 0;
    for (int k = 0; k < 8; k++) { acc.pow[k] = x[i] * k; if (acc.pow[k] > 0) acc.count++; }
    z[i] = acc.pow[7] + acc.count;
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    double p = 0, xp = 1;
    for (int k = 0; k <= 7; k++) { p += s.coef[k] * xp; xp *= x[i]; }
    p *= 3.0;
    if (fabs(y[i] - p) > 1e-9 * (1 + fabs(p))) { if (errors++ < 5) printf("FAIL y[%d] = %g want %g\n", i, y[i], p); }
    int cnt = 0;
    for (int k = 0; k < 8; k++) cnt += x[i] * k > 0;
    double zz = x[i] * 7 + cnt;
    if (fabs(z[i] - zz) > 1e-12) { if (errors++ < 5) printf("FAIL z[%d] = %g want %g\n", i, z[i], zz); }
  }
  if (s.scale != 1.5 || w.count != -5) { errors++; printf("FAIL host structs changed\n"); }
  free(x); free(y); free(z);
  return errors != 0;
}
