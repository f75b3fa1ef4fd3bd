// kernels loops the dependence test proves independent (2-D arrays indexed by the loop variables, a loop-invariant offset, private temporaries) next to a `loop auto` with a loop-invariant shift that is still a dependence.
// OpenACC 3.3 §2.5.3/§2.9.7.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static float a[64][96], b[64][96], c[2000], d[2000];
  const int n = 64, m = 96, len = 1900, shift = 3;
  srand(42);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = (float)(rand() % 100);
  for (int k = 0; k < 2000; k++) c[k] = d[k] = (float)(rand() % 50);
  #pragma acc kernels copyin(a) copyout(b) copy(c, d)
  {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) {
        float t = a[i][j] * 2.0f;
        b[i][j] = t + (float)(i - j);
      }
    for (int k = 0; k < len; k++) c[k + shift] = c[k + shift] * 0.5f + 1.0f;   /* same element: independent */
    #pragma acc loop auto
    for (int k = 0; k < len; k++) d[k + shift] = d[k] + 1.0f;                 /* d[k+3] read 3 iterations later */
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (b[i][j] != a[i][j] * 2.0f + (float)(i - j)) {
        if (errors++ < 5) printf("FAIL b[%d][%d] = %g\n", i, j, b[i][j]);
      }
  srand(42);
  for (int i = 0; i < n * m; i++) (void)rand();
  float cr[2000], dr[2000];
  for (int k = 0; k < 2000; k++) cr[k] = dr[k] = (float)(rand() % 50);
  for (int k = 0; k < len; k++) cr[k + shift] = cr[k + shift] * 0.5f + 1.0f;
  for (int k = 0; k < len; k++) dr[k + shift] = dr[k] + 1.0f;
  for (int k = 0; k < 2000; k++)
    if (c[k] != cr[k] || d[k] != dr[k]) {
      if (errors++ < 10) printf("FAIL k=%d c=%g (%g) d=%g (%g)\n", k, c[k], cr[k], d[k], dr[k]);
    }
  return errors != 0;
}
