// Gaussian elimination with partial pivoting on a random diagonally dominant system.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 40

static void solve(int n, double a[n][n + 1], double *x) {
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++) if (fabs(a[i][k]) > fabs(a[piv][k])) piv = i;
    if (piv != k)
      for (int j = 0; j <= n; j++) { double t = a[k][j]; a[k][j] = a[piv][j]; a[piv][j] = t; }
    for (int i = k + 1; i < n; i++) {
      double f = a[i][k] / a[k][k];
      for (int j = k; j <= n; j++) a[i][j] -= f * a[k][j];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = a[i][n];
    for (int j = i + 1; j < n; j++) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
}

int main(void) {
  static double a[N][N + 1], orig[N][N + 1];
  double x[N], truth[N];
  srand(42);
  for (int i = 0; i < N; i++) truth[i] = rand() % 200 / 10.0 - 10;
  for (int i = 0; i < N; i++) {
    double row = 0;
    for (int j = 0; j < N; j++) { a[i][j] = (double)rand() / RAND_MAX - 0.5; row += fabs(a[i][j]); }
    a[i][i] += row;
  }
  for (int i = 0; i < N; i++) {
    a[i][N] = 0;
    for (int j = 0; j < N; j++) a[i][N] += a[i][j] * truth[j];
    for (int j = 0; j <= N; j++) orig[i][j] = a[i][j];
  }
  solve(N, a, x);
  int errors = 0;
  for (int i = 0; i < N; i++)
    if (fabs(x[i] - truth[i]) > 1e-9) { errors++; printf("FAIL x[%d] = %g want %g\n", i, x[i], truth[i]); }
  double res = 0;
  for (int i = 0; i < N; i++) {
    double s = -orig[i][N];
    for (int j = 0; j < N; j++) s += orig[i][j] * x[j];
    res = fmax(res, fabs(s));
  }
  if (res > 1e-9) { errors++; printf("FAIL residual %g\n", res); }
  if (errors == 0) printf("gauss elimination ok\n");
  return errors != 0;
}
