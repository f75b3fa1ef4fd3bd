// A cache directive at the top of a loop body (a 1-D stencil reading a[i-1:3]) and inside a tiled nest: a hint the multicore and host devices ignore; results must not change.
// OpenACC 3.3 §2.10: cache specifies array elements to be fetched into the highest level of the cache; it has no effect on results.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 4099

int main(void) {
  static float a[N], b[N], rb[N];
  static float g[40][50], h[40][50], rh[40][50];
  srand(42);
  for (int i = 0; i < N; i++) { a[i] = (float)(rand() % 1000) / 10.0f; b[i] = rb[i] = 0.0f; }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) g[i][j] = (float)(rand() % 500) - 250.0f;
  #pragma acc parallel loop copyin(a) copy(b)
  for (int i = 1; i < N - 1; i++) {
    #pragma acc cache(a[i - 1:3])
    b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
  }
  for (int i = 1; i < N - 1; i++) rb[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
  #pragma acc parallel loop tile(8, 8) copyin(g) copyout(h)
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) {
      #pragma acc cache(g[i:1][j:1])
      h[i][j] = g[i][j] * 3.0f + 1.0f;
    }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) rh[i][j] = g[i][j] * 3.0f + 1.0f;
  int errors = 0;
  for (int i = 0; i < N; i++)
    if (fabsf(b[i] - rb[i]) > 1e-4f) {
      if (errors++ < 5) printf("FAIL b[%d]=%g (%g)\n", i, b[i], rb[i]);
    }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++)
      if (h[i][j] != rh[i][j]) {
        if (errors++ < 5) printf("FAIL h(%d,%d)=%g (%g)\n", i, j, h[i][j], rh[i][j]);
      }
  return errors != 0;
}
