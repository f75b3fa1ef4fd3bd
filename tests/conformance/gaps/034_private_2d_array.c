// 2-D fixed arrays: private(m) and firstprivate(r) with float m[4][4] (a per-row 4x4 matrix product), and a 2-D section private(q[1:2][0:4]).
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 1200

int main(void) {
  float m[4][4], r[4][4], q[4][4];
  float *v = malloc(sizeof(float) * N * 4), *out = malloc(sizeof(float) * N * 4), *tr = malloc(sizeof(float) * N);
  srand(42);
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++) { r[a][b] = (float)(rand() % 9) - 4.0f; m[a][b] = 100.0f; q[a][b] = -1.0f; }
  for (int i = 0; i < N * 4; i++) v[i] = (float)(rand() % 200) / 50.0f;
  /* m = r * diag(v_i); out_i = m * (1,1,1,1) */
  #pragma acc parallel loop gang firstprivate(r) private(m) copyin(v[0:N*4]) copyout(out[0:N*4])
  for (int i = 0; i < N; i++) {
    for (int a = 0; a < 4; a++)
      for (int b = 0; b < 4; b++) m[a][b] = r[a][b] * v[i * 4 + b];
    for (int a = 0; a < 4; a++) {
      float s = 0;
      for (int b = 0; b < 4; b++) s += m[a][b];
      out[i * 4 + a] = s;
    }
  }
  /* rows 1..2 of q are private to each gang */
  #pragma acc parallel loop gang private(q[1:2][0:4]) copyin(v[0:N*4]) copyout(tr[0:N])
  for (int i = 0; i < N; i++) {
    for (int a = 1; a < 3; a++)
      for (int b = 0; b < 4; b++) q[a][b] = v[i * 4 + b] * a;
    tr[i] = q[1][1] + q[2][2];
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    for (int a = 0; a < 4; a++) {
      float s = 0;
      for (int b = 0; b < 4; b++) s += r[a][b] * v[i * 4 + b];
      if (fabsf(out[i * 4 + a] - s) > 1e-4f * (1 + fabsf(s))) { if (errors++ < 5) printf("FAIL out[%d][%d] = %f want %f\n", i, a, out[i * 4 + a], s); }
    }
    float t = v[i * 4 + 1] + 2 * v[i * 4 + 2];
    if (fabsf(tr[i] - t) > 1e-4f * (1 + fabsf(t))) { if (errors++ < 5) printf("FAIL tr[%d] = %f want %f\n", i, tr[i], t); }
  }
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      if (m[a][b] != 100.0f || q[a][b] != -1.0f) { errors++; printf("FAIL host m/q[%d][%d] changed\n", a, b); }
  free(v); free(out); free(tr);
  return errors != 0;
}
