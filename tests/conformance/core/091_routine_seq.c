// routine seq functions called from kernels; a routine calling another routine.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#pragma acc routine seq
static double poly(double x) { return ((2.0 * x - 3.0) * x + 1.0) * x - 5.0; }

#pragma acc routine seq
static int digit_sum(int v) {
  int s = 0;
  while (v > 0) { s += v % 10; v /= 10; }
  return s;
}

#pragma acc routine seq
static double newton_root(double guess) {
  for (int it = 0; it < 50; it++) {
    double f = poly(guess), df = (6.0 * guess - 6.0) * guess + 1.0;
    guess -= f / df;
  }
  return guess;
}

int main(void) {
  const int n = 2000;
  double *y = malloc(n * sizeof(double));
  int *d = malloc(n * sizeof(int));
  #pragma acc parallel loop copyout(y[0:n], d[0:n])
  for (int i = 0; i < n; i++) {
    y[i] = poly(i * 0.01);
    d[i] = digit_sum(i * 7919);
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (fabs(y[i] - poly(i * 0.01)) > 1e-12) { errors++; printf("FAIL poly %d\n", i); break; }
    if (d[i] != digit_sum(i * 7919)) { errors++; printf("FAIL digit_sum %d\n", i); break; }
  }
  double r = 0;
  #pragma acc serial copyout(r)
  r = newton_root(3.0);
  if (fabs(poly(r)) > 1e-10) { errors++; printf("FAIL newton root %g\n", r); }
  free(y); free(d);
  if (errors == 0) printf("routine seq ok\n");
  return errors != 0;
}
