// Whole fixed-size arrays: private(a) and firstprivate(t) with float a[16] on parallel (one copy per gang), and private(a) on a gang loop and on a vector loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 3000
#define K 16

int main(void) {
  float a[K], t[K];
  float *x = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N), *z = malloc(sizeof(float) * N);
  srand(42);
  for (int k = 0; k < K; k++) { a[k] = 7.0f; t[k] = (float)(rand() % 100) / 25.0f; }
  for (int i = 0; i < N; i++) x[i] = (float)(rand() % 1000) / 500.0f;
  /* gang copies of t, each scaled once by its gang; a private per gang */
  #pragma acc parallel num_gangs(12) firstprivate(t) private(a) copyin(x[0:N]) copyout(y[0:N])
  {
    for (int k = 0; k < K; k++) t[k] = t[k] * 0.5f;
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      for (int k = 0; k < K; k++) a[k] = t[k] * x[i];
      float s = 0;
      for (int k = 0; k < K; k++) s += a[k];
      y[i] = s;
    }
  }
  /* loop private: a scratch array per iteration executor of a gang vector loop */
  #pragma acc parallel loop gang vector private(a) copyin(x[0:N]) copyout(z[0:N])
  for (int i = 0; i < N; i++) {
    a[0] = x[i];
    for (int k = 1; k < K; k++) a[k] = a[k - 1] * 0.5f + 1.0f;
    z[i] = a[K - 1];
  }
  int errors = 0;
  float ts = 0;
  for (int k = 0; k < K; k++) ts += t[k] * 0.5f;
  for (int i = 0; i < N; i++) {
    float want = ts * x[i];
    if (fabsf(y[i] - want) > 1e-4f * (1 + fabsf(want))) { if (errors++ < 5) printf("FAIL y[%d] = %f want %f\n", i, y[i], want); }
    float v = x[i];
    for (int k = 1; k < K; k++) v = v * 0.5f + 1.0f;
    if (fabsf(z[i] - v) > 1e-5f * (1 + fabsf(v))) { if (errors++ < 5) printf("FAIL z[%d] = %f want %f\n", i, z[i], v); }
  }
  for (int k = 0; k < K; k++)
    if (a[k] != 7.0f) { errors++; printf("FAIL host a[%d] changed\n", k); }
  free(x); free(y); free(z);
  return errors != 0;
}
