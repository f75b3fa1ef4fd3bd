// Conjugate gradient on a 1-D Poisson matrix, all vector kernels on the device in a data region.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 200

int main(void) {
  static double x[N], b[N], r[N], p[N], ap[N];
  for (int i = 0; i < N; i++) { x[i] = 0; b[i] = sin(3.14159265358979 * (i + 1) / (N + 1)); r[i] = b[i]; p[i] = b[i]; }
  double rr = 0;
  for (int i = 0; i < N; i++) rr += r[i] * r[i];
  int it = 0;
  #pragma acc data copy(x) copyin(b) create(ap) copy(r, p)
  for (it = 0; it < 2 * N && rr > 1e-20; it++) {
    #pragma acc parallel loop present(p, ap)
    for (int i = 0; i < N; i++) ap[i] = 2 * p[i] - (i > 0 ? p[i - 1] : 0) - (i < N - 1 ? p[i + 1] : 0);
    double pap = 0;
    #pragma acc parallel loop present(p, ap) reduction(+:pap)
    for (int i = 0; i < N; i++) pap += p[i] * ap[i];
    double alpha = rr / pap, rr_new = 0;
    #pragma acc parallel loop present(x, r, p, ap) reduction(+:rr_new)
    for (int i = 0; i < N; i++) { x[i] += alpha * p[i]; r[i] -= alpha * ap[i]; rr_new += r[i] * r[i]; }
    double beta = rr_new / rr;
    rr = rr_new;
    #pragma acc parallel loop present(p, r)
    for (int i = 0; i < N; i++) p[i] = r[i] + beta * p[i];
  }
  double res = 0;
  for (int i = 0; i < N; i++) {
    double ax = 2 * x[i] - (i > 0 ? x[i - 1] : 0) - (i < N - 1 ? x[i + 1] : 0);
    res = fmax(res, fabs(ax - b[i]));
  }
  int errors = 0;
  if (res > 1e-8) { errors++; printf("FAIL residual %g after %d iterations\n", res, it); }
  if (it > N + 5) { errors++; printf("FAIL too many iterations %d\n", it); }
  if (errors == 0) printf("conjugate gradient ok (%d iterations)\n", it);
  return errors != 0;
}
