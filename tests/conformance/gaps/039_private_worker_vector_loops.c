// loop worker private(row[0:m]) and loop vector private(t[0:4]) inside a gang loop: a copy per worker (shared by its lanes) and per lane.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NI 60
#define NJ 40
#define M 32

int main(void) {
  float *a = malloc(sizeof(float) * NI * NJ * M), *out = malloc(sizeof(float) * NI * NJ);
  float *row = malloc(sizeof(float) * M), *t = malloc(sizeof(float) * 4);
  srand(42);
  for (int i = 0; i < NI * NJ * M; i++) a[i] = (float)(rand() % 1000) / 250.0f;
  int m = M;
  #pragma acc parallel num_gangs(8) num_workers(4) vector_length(32) copyin(a[0:NI*NJ*M]) copyout(out[0:NI*NJ])
  {
    #pragma acc loop gang
    for (int i = 0; i < NI; i++) {
      #pragma acc loop worker private(row[0:m])
      for (int j = 0; j < NJ; j++) {
        float *src = a + ((long)i * NJ + j) * M;
        row[0] = src[0];
        for (int k = 1; k < m; k++) row[k] = row[k - 1] + src[k];   /* prefix sums of the row */
        float best = 0;
        #pragma acc loop vector private(t[0:4]) reduction(max:best)
        for (int k = 0; k < m; k++) {
          t[0] = row[k]; t[1] = (float)(k + 1); t[2] = t[0] / t[1]; t[3] = t[2] * 0.5f;
          best = fmaxf(best, t[2] + t[3]);
        }
        out[i * NJ + j] = best;
      }
    }
  }
  int errors = 0;
  for (int i = 0; i < NI * NJ; i++) {
    float s = 0, best = 0;
    for (int k = 0; k < M; k++) { s += a[(long)i * M + k]; best = fmaxf(best, 1.5f * (s / (k + 1))); }
    if (fabsf(out[i] - best) > 1e-4f * (1 + best)) { if (errors++ < 5) printf("FAIL out[%d] = %f want %f\n", i, out[i], best); }
  }
  free(a); free(out); free(row); free(t);
  return errors != 0;
}
