// cache directive at the top of loop bodies (a hint): 1-D stencil and a 2-D row cache.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 10000;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  srand(10);
  for (int i = 0; i < n; i++) a[i] = (float)(rand() % 1000) / 100.0f;
  #pragma acc parallel loop copyin(a[0:n]) copyout(b[1:n-2])
  for (int i = 1; i < n - 1; i++) {
    #pragma acc cache(a[i-1:3])
    b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
  }
  int errors = 0;
  for (int i = 1; i < n - 1; i++) {
    float w = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
    if (fabsf(b[i] - w) > 1e-5f) { errors++; printf("FAIL b[%d]\n", i); break; }
  }
  static double m[64][64], r[64];
  for (int i = 0; i < 64; i++) for (int j = 0; j < 64; j++) m[i][j] = i + j * 0.5;
  double coef[4] = {1, 2, 3, 4};
  #pragma acc parallel loop gang copyin(m, coef) copyout(r)
  for (int i = 0; i < 64; i++) {
    #pragma acc cache(coef[0:4], m[i][0:64])
    double s = 0;
    #pragma acc loop seq
    for (int j = 0; j < 64; j++) s += coef[j % 4] * m[i][j];
    r[i] = s;
  }
  for (int i = 0; i < 64; i++) {
    double s = 0;
    for (int j = 0; j < 64; j++) s += coef[j % 4] * m[i][j];
    if (fabs(r[i] - s) > 1e-9) { errors++; printf("FAIL r[%d]\n", i); break; }
  }
  free(a); free(b);
  if (errors == 0) printf("cache directive ok\n");
  return errors != 0;
}
