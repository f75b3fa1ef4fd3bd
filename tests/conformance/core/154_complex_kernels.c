// double _Complex and float _Complex arrays in compute regions (DFT of a random signal).
#include <stdio.h>
#include <stdlib.h>
#include <complex.h>
#include <math.h>

#define N 128

int main(void) {
  static double complex x[N], X[N], back[N];
  static float complex fz[N];
  srand(42);
  for (int i = 0; i < N; i++) x[i] = (rand() % 100 - 50) / 10.0 + I * ((rand() % 100 - 50) / 10.0);
  const double tau = 6.283185307179586;
  #pragma acc parallel loop copyin(x) copyout(X)
  for (int k = 0; k < N; k++) {
    double complex s = 0;
    for (int t = 0; t < N; t++) s += x[t] * cexp(-I * tau * k * t / N);
    X[k] = s;
  }
  #pragma acc parallel loop copyin(X) copyout(back)
  for (int t = 0; t < N; t++) {
    double complex s = 0;
    for (int k = 0; k < N; k++) s += X[k] * cexp(I * tau * k * t / N);
    back[t] = s / N;
  }
  #pragma acc parallel loop copyout(fz)
  for (int i = 0; i < N; i++) fz[i] = (float)i * (1.0f + 1.0f * I) * (1.0f - 1.0f * I);
  int errors = 0;
  for (int i = 0; i < N; i++) {
    if (cabs(back[i] - x[i]) > 1e-9) { errors++; printf("FAIL inverse %d\n", i); break; }
    if (crealf(fz[i]) != 2.0f * i || cimagf(fz[i]) != 0.0f) { errors++; printf("FAIL float complex %d\n", i); break; }
  }
  double e1 = 0, e2 = 0;
  for (int i = 0; i < N; i++) { e1 += creal(x[i] * conj(x[i])); e2 += creal(X[i] * conj(X[i])); }
  if (fabs(e1 - e2 / N) > 1e-6 * e1) { errors++; printf("FAIL Parseval %g %g\n", e1, e2 / N); }
  if (errors == 0) printf("complex in kernels ok\n");
  return errors != 0;
}
