// serial with private(buf[0:n]) and firstprivate(seed[0:4]): a sequential prefix-sum pipeline in private storage; the host arrays are untouched.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>

#define N 5000

int main(void) {
  long *buf = malloc(sizeof(long) * N);
  long *seed = malloc(sizeof(long) * 4);
  long *res = malloc(sizeof(long) * N);
  int *in = malloc(sizeof(int) * N);
  srand(42);
  for (int i = 0; i < N; i++) { in[i] = rand() % 100 - 50; buf[i] = 7; }
  for (int k = 0; k < 4; k++) seed[k] = rand() % 10;
  int n = N;
  #pragma acc serial private(buf[0:n]) firstprivate(seed[0:4]) copyin(in[0:n]) copyout(res[0:n])
  {
    buf[0] = in[0] + seed[0];
    for (int i = 1; i < n; i++) buf[i] = buf[i - 1] + in[i] * seed[i % 4];
    seed[1] = -1000;                       /* the private copy only */
    for (int i = 0; i < n; i++) res[i] = buf[n - 1 - i] + seed[1];
  }
  int errors = 0;
  long *want = malloc(sizeof(long) * N);
  want[0] = in[0] + seed[0];
  for (int i = 1; i < N; i++) want[i] = want[i - 1] + in[i] * seed[i % 4];
  for (int i = 0; i < N; i++)
    if (res[i] != want[N - 1 - i] - 1000) { if (errors++ < 5) printf("FAIL res[%d] = %ld want %ld\n", i, res[i], want[N - 1 - i] - 1000); }
  for (int i = 0; i < N; i++)
    if (buf[i] != 7) { errors++; printf("FAIL host buf changed\n"); break; }
  if (seed[1] == -1000) { errors++; printf("FAIL host seed changed\n"); }
  free(buf); free(seed); free(res); free(in); free(want);
  return errors != 0;
}
