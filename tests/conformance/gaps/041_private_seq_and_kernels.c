// loop seq private(w[0:m]) inside a gang loop (one copy per executor of the gang), and loop private(w[0:m]) in a kernels region (independent).
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>

#define N 900
#define M 10

int main(void) {
  long *w = malloc(sizeof(long) * M), *x = malloc(sizeof(long) * N), *y = malloc(sizeof(long) * N), *z = malloc(sizeof(long) * N);
  srand(42);
  for (int i = 0; i < N; i++) x[i] = rand() % 1000;
  for (int k = 0; k < M; k++) w[k] = 5;
  int m = M;
  #pragma acc parallel loop gang copyin(x[0:N]) copyout(y[0:N])
  for (int i = 0; i < N; i++) {
    long acc = 0;
    #pragma acc loop seq private(w[0:m])
    for (int r = 0; r < 3; r++) {
      w[0] = x[i] + r;
      for (int k = 1; k < m; k++) w[k] = w[k - 1] * 3 % 1009;   /* a chain in the private copy */
      acc += w[m - 1];
    }
    y[i] = acc;
  }
  #pragma acc kernels copyin(x[0:N]) copyout(z[0:N])
  {
    #pragma acc loop independent private(w[0:m])
    for (int i = 0; i < N; i++) {
      for (int k = 0; k < m; k++) w[k] = x[i] * k;
      long s = 0;
      for (int k = 0; k < m; k++) s += w[k];
      z[i] = s;
    }
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    long acc = 0;
    for (int r = 0; r < 3; r++) {
      long v = x[i] + r;
      for (int k = 1; k < M; k++) v = v * 3 % 1009;
      acc += v;
    }
    if (y[i] != acc) { if (errors++ < 5) printf("FAIL y[%d] = %ld want %ld\n", i, y[i], acc); }
    if (z[i] != x[i] * (M * (M - 1) / 2)) { if (errors++ < 5) printf("FAIL z[%d]\n", i); }
  }
  for (int k = 0; k < M; k++)
    if (w[k] != 5) { errors++; printf("FAIL host w[%d] changed\n", k); }
  free(w); free(x); free(y); free(z);
  return errors != 0;
}
