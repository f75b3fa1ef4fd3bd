// Nested loops with their own copies: a gang loop's private(c[0:m]) and an inner vector loop's private(c[0:m]); the inner copy does not touch the gang's.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>

#define N 700
#define M 12

int main(void) {
  int *c = malloc(sizeof(int) * M), *x = malloc(sizeof(int) * N), *out = malloc(sizeof(int) * N);
  srand(42);
  for (int i = 0; i < N; i++) x[i] = rand() % 100;
  for (int k = 0; k < M; k++) c[k] = -7;
  int m = M;
  #pragma acc parallel loop gang private(c[0:m]) copyin(x[0:N]) copyout(out[0:N])
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < m; k++) c[k] = x[i] + k;           /* the gang's copy */
    int sum = 0;
    #pragma acc loop vector private(c[0:m]) reduction(+:sum)
    for (int j = 0; j < m; j++) {
      for (int k = 0; k < m; k++) c[k] = j * k;            /* the lane's copy */
      sum += c[m - 1];
    }
    int s2 = 0;
    for (int k = 0; k < m; k++) s2 += c[k];                /* still the gang's values */
    out[i] = sum * 1000 + s2;
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    int sum = 0, s2 = 0;
    for (int j = 0; j < M; j++) sum += j * (M - 1);
    for (int k = 0; k < M; k++) s2 += x[i] + k;
    if (out[i] != sum * 1000 + s2) { if (errors++ < 5) printf("FAIL out[%d] = %d want %d\n", i, out[i], sum * 1000 + s2); }
  }
  for (int k = 0; k < M; k++)
    if (c[k] != -7) { errors++; printf("FAIL host c[%d] changed\n", k); }
  free(c); free(x); free(out);
  return errors != 0;
}
