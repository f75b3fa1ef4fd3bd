// VLAs in compute regions: local VLAs with copy clauses and VLA parameters a[n][n].
#include <stdio.h>
#include <stdlib.h>

static void transpose_add(int n, double a[n][n], double b[n][n]) {
  #pragma acc parallel loop collapse(2) copyin(a[0:n][0:n]) copyout(b[0:n][0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) b[i][j] = a[i][j] + a[j][i];
}
static long trace3(int p, int q, int r, int t[p][q][r]) {
  long s = 0;
  #pragma acc parallel loop collapse(3) copyin(t[0:p][0:q][0:r]) reduction(+:s)
  for (int i = 0; i < p; i++)
    for (int j = 0; j < q; j++)
      for (int k = 0; k < r; k++) s += (i == j && j == k) ? t[i][j][k] : 0;
  return s;
}

int main(void) {
  int n = 20 + rand() % 5;
  double a[n][n], b[n][n];
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i][j] = i * 100 + j;
  transpose_add(n, a, b);
  int errors = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) if (b[i][j] != b[j][i] || b[i][j] != (i + j) * 101) { errors++; printf("FAIL b[%d][%d]\n", i, j); i = n; break; }
  int m = 9;
  float v[m];
  #pragma acc parallel loop copyout(v)
  for (int i = 0; i < m; i++) v[i] = i * 0.5f;
  for (int i = 0; i < m; i++) if (v[i] != i * 0.5f) { errors++; printf("FAIL v[%d]\n", i); break; }
  int p = 6, q = 7, r = 8;
  int (*t)[q][r] = malloc(sizeof(int[p][q][r]));
  for (int i = 0; i < p; i++) for (int j = 0; j < q; j++) for (int k = 0; k < r; k++) t[i][j][k] = i + j + k + 1;
  long tr = trace3(p, q, r, t);
  if (tr != 1 + 4 + 7 + 10 + 13 + 16) { errors++; printf("FAIL trace3 %ld\n", tr); }
  free(t);
  if (errors == 0) printf("VLAs in compute regions ok\n");
  return errors != 0;
}
