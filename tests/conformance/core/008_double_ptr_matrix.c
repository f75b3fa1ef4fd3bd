// double** matrices allocated with malloc (row pointers), transposed and multiplied.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static double **alloc_matrix(int n, int m) {
  double **a = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) a[i] = malloc(m * sizeof(double));
  return a;
}
static void free_matrix(double **a, int n) {
  for (int i = 0; i < n; i++) free(a[i]);
  free(a);
}

int main(void) {
  const int n = 24, m = 17;
  srand(42);
  double **a = alloc_matrix(n, m), **t = alloc_matrix(m, n), **p = alloc_matrix(n, n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = (double)rand() / RAND_MAX - 0.5;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) t[j][i] = a[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = 0; k < m; k++) s += a[i][k] * t[k][j];
      p[i][j] = s;
    }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (p[i][i] < 0) { printf("FAIL diagonal %d negative\n", i); errors++; }
    for (int j = 0; j < i; j++)
      if (fabs(p[i][j] - p[j][i]) > 1e-12) { printf("FAIL not symmetric %d %d\n", i, j); errors++; }
  }
  double norm = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) norm += a[i][j] * a[i][j];
  double trace = 0.0;
  for (int i = 0; i < n; i++) trace += p[i][i];
  if (fabs(norm - trace) > 1e-9) { printf("FAIL trace %g != norm %g\n", trace, norm); errors++; }
  free_matrix(a, n); free_matrix(t, m); free_matrix(p, n);
  if (errors == 0) printf("double** matrices ok\n");
  return errors != 0;
}
