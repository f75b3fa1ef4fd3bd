// LU decomposition without pivoting (diagonally dominant): host loop over pivots, device
// loops for the trailing update, then a check that L*U reproduces the matrix.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 48

int main(void) {
  static double a[N][N], orig[N][N];
  srand(42);
  for (int i = 0; i < N; i++) {
    double rs = 0;
    for (int j = 0; j < N; j++) { a[i][j] = rand() / (double)RAND_MAX - 0.5; rs += fabs(a[i][j]); }
    a[i][i] += rs + 1;
    for (int j = 0; j < N; j++) orig[i][j] = a[i][j];
  }
  #pragma acc data copy(a)
  for (int k = 0; k < N - 1; k++) {
    #pragma acc parallel loop present(a)
    for (int i = k + 1; i < N; i++) a[i][k] /= a[k][k];
    #pragma acc parallel loop collapse(2) present(a)
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++) a[i][j] -= a[i][k] * a[k][j];
  }
  int errors = 0;
  double maxerr = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k <= (i < j ? i : j); k++) s += (k == i ? 1.0 : a[i][k]) * a[k][j];
      maxerr = fmax(maxerr, fabs(s - orig[i][j]));
    }
  if (maxerr > 1e-10) { errors++; printf("FAIL |LU - A| = %g\n", maxerr); }
  if (errors == 0) printf("LU decomposition ok\n");
  return errors != 0;
}
