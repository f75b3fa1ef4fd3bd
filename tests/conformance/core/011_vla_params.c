// VLA parameters: void f(int n, double a[n][n]) and 3-D variants.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

static void fill(int n, double a[n][n], double seed) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i][j] = sin(seed + i * n + j);
}
static void matmul(int n, double a[n][n], double b[n][n], double c[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}
static double sum3(int n, int m, int p, float t[n][m][p]) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++) s += t[i][j][k];
  return s;
}

int main(void) {
  int n = 12, errors = 0;
  double (*a)[n] = malloc(sizeof(double[n][n]));
  double (*b)[n] = malloc(sizeof(double[n][n]));
  double (*c)[n] = malloc(sizeof(double[n][n]));
  fill(n, a, 0.3);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) b[i][j] = (i == j);
  matmul(n, a, b, c);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (fabs(c[i][j] - a[i][j]) > 1e-15) { errors++; printf("FAIL c[%d][%d]\n", i, j); }
  int p = 3, q = 4, r = 5;
  float t[p][q][r];
  for (int i = 0; i < p; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < r; k++) t[i][j][k] = (float)(i + j * k);
  double expect = 0;
  for (int i = 0; i < p; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < r; k++) expect += i + j * k;
  if (sum3(p, q, r, t) != expect) { errors++; printf("FAIL sum3\n"); }
  free(a); free(b); free(c);
  if (errors == 0) printf("VLA parameters ok\n");
  return errors != 0;
}
