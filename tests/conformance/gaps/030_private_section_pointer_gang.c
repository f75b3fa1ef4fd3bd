// private(c[0:m]) on a pointer, gang loop: every gang gets its own m elements (scratch per row), the host array is untouched.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 2000
#define M 24

int main(void) {
  float *in = malloc(sizeof(float) * N * M);
  float *out = malloc(sizeof(float) * N);
  float *c = malloc(sizeof(float) * M);
  srand(42);
  for (int i = 0; i < N * M; i++) in[i] = (float)(rand() % 1000) / 100.0f;
  for (int k = 0; k < M; k++) c[k] = -1.0f - k;
  int m = M;
  /* c[k] = running maximum of row i up to k; out[i] = sum of the running maxima */
  #pragma acc parallel loop gang num_gangs(64) private(c[0:m]) copyin(in[0:N*M]) copyout(out[0:N])
  for (int i = 0; i < N; i++) {
    c[0] = in[i * M];
    for (int k = 1; k < m; k++) c[k] = fmaxf(c[k - 1], in[i * M + k]);
    float s = 0;
    for (int k = 0; k < m; k++) s += c[k];
    out[i] = s;
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    float run = in[i * M], s = run;
    for (int k = 1; k < M; k++) { run = fmaxf(run, in[i * M + k]); s += run; }
    if (fabsf(out[i] - s) > 1e-3f * fabsf(s)) { if (errors++ < 5) printf("FAIL row %d: %f want %f\n", i, out[i], s); }
  }
  for (int k = 0; k < M; k++)
    if (c[k] != -1.0f - k) { errors++; printf("FAIL host c[%d] changed to %f\n", k, c[k]); }
  free(in); free(out); free(c);
  return errors != 0;
}
