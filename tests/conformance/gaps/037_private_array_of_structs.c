// Arrays of structs: private(pts) (struct pt pts[6]), firstprivate(w) of a struct array, and private(q[1:4]) on a pointer to structs.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 1800

struct pt { float x, y; int tag; };

int main(void) {
  struct pt pts[6], w[3];
  struct pt *q = malloc(sizeof(struct pt) * 6);
  float *in = malloc(sizeof(float) * N), *out = malloc(sizeof(float) * N), *out2 = malloc(sizeof(float) * N);
  srand(42);
  for (int k = 0; k < 6; k++) { pts[k].x = -1; pts[k].y = -2; pts[k].tag = 99; q[k] = pts[k]; }
  for (int k = 0; k < 3; k++) { w[k].x = (float)(rand() % 10); w[k].y = (float)(rand() % 10); w[k].tag = k + 1; }
  for (int i = 0; i < N; i++) in[i] = (float)(rand() % 1000) / 100.0f;
  /* polygon of 6 points per i; out = its perimeter-ish sum of |dx|+|dy| weighted by w */
  #pragma acc parallel loop gang private(pts) firstprivate(w) copyin(in[0:N]) copyout(out[0:N])
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 6; k++) { pts[k].x = in[i] * k; pts[k].y = in[i] + k; pts[k].tag = k % 3; }
    float s = 0;
    for (int k = 1; k < 6; k++)
      s += w[pts[k].tag].x * fabsf(pts[k].x - pts[k - 1].x) + w[pts[k].tag].y * fabsf(pts[k].y - pts[k - 1].y);
    out[i] = s;
  }
  #pragma acc parallel loop gang private(q[1:4]) copyin(in[0:N]) copyout(out2[0:N])
  for (int i = 0; i < N; i++) {
    for (int k = 1; k < 5; k++) { q[k].x = in[i] + k; q[k].tag = k; }
    out2[i] = q[1].x * q[4].tag + q[2].x;
  }
  int errors = 0;
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int k = 1; k < 6; k++) {
      int t = k % 3;
      s += w[t].x * fabsf(in[i] * k - in[i] * (k - 1)) + w[t].y * 1.0f;
    }
    if (fabsf(out[i] - s) > 1e-4f * (1 + fabsf(s))) { if (errors++ < 5) printf("FAIL out[%d] = %f want %f\n", i, out[i], s); }
    float s2 = (in[i] + 1) * 4 + in[i] + 2;
    if (fabsf(out2[i] - s2) > 1e-4f * (1 + fabsf(s2))) { if (errors++ < 5) printf("FAIL out2[%d] = %f want %f\n", i, out2[i], s2); }
  }
  for (int k = 0; k < 6; k++)
    if (pts[k].tag != 99 || q[k].tag != 99 || q[k].x != -1) { errors++; printf("FAIL host structs changed at %d\n", k); }
  free(q); free(in); free(out); free(out2);
  return errors != 0;
}
