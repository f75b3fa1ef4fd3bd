// A pointer to rows, float (*p)[8]: private(p[0:2][0:8]) and firstprivate(p[1:2][0:8]) give each gang its own rows, indexed p[r][c] as outside.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 1000

int main(void) {
  float (*p)[8] = malloc(sizeof(float[8]) * 4);
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N), *z = malloc(sizeof(float) * N);
  srand(42);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 8; c++) p[r][c] = (float)(rand() % 100) / 10.0f;
  for (int i = 0; i < N; i++) x[i] = (float)(rand() % 1000) / 100.0f;
  float keep[4][8];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 8; c++) keep[r][c] = p[r][c];
  #pragma acc parallel loop gang private(p[0:2][0:8]) copyin(x[0:N]) copyout(y[0:N])
  for (int i = 0; i < N; i++) {
    for (int c = 0; c < 8; c++) { p[0][c] = x[i] * c; p[1][c] = p[0][c] + 1; }
    y[i] = p[1][7] - p[0][3];
  }
  #pragma acc parallel num_gangs(10) firstprivate(p[1:2][0:8]) copyin(x[0:N]) copyout(z[0:N])
  {
    for (int c = 0; c < 8; c++) p[2][c] += p[1][c];          /* per-gang update, once */
    #pragma acc loop gang
    for (int i = 0; i < N; i++) z[i] = p[2][i % 8] * x[i];
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    float wy = x[i] * 7 + 1 - x[i] * 3;
    if (fabsf(y[i] - wy) > 1e-4f * (1 + fabsf(wy))) { if (errors++ < 5) printf("FAIL y[%d] = %f want %f\n", i, y[i], wy); }
    float wz = (keep[2][i % 8] + keep[1][i % 8]) * x[i];
    if (fabsf(z[i] - wz) > 1e-4f * (1 + fabsf(wz))) { if (errors++ < 5) printf("FAIL z[%d] = %f want %f\n", i, z[i], wz); }
  }
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 8; c++)
      if (p[r][c] != keep[r][c]) { errors++; printf("FAIL host p[%d][%d] changed\n", r, c); }
  free(p); free(x); free(y); free(z);
  return errors != 0;
}
