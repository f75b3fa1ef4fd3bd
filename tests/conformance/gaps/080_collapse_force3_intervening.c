// collapse(force:3) with statements at both intervening levels, before and after the inner loops (idempotent per outer iteration, as forced collapse requires).
// OpenACC 3.3 §2.9.1 forced collapse. GCC 12 lacks it: gcc_check.py drops collapse(force:n) (only the outer loop is associated there).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int nk = 6, nj = 11, ni = 29;
  float *u = malloc(nk * nj * ni * sizeof(float)), *out = malloc(nk * nj * ni * sizeof(float));
  float *plane_scale = malloc(nk * sizeof(float)), *row_bias = malloc(nk * nj * sizeof(float));
  int *row_seen = malloc(nk * nj * sizeof(int)), *plane_seen = malloc(nk * sizeof(int));
  srand(42);
  for (int p = 0; p < nk * nj * ni; p++) u[p] = (float)(rand() % 512) / 8.0f;
  for (int k = 0; k < nk; k++) plane_scale[k] = 1.0f + (float)(rand() % 7);
  #pragma acc parallel loop collapse(force:3) copyin(u[0:nk * nj * ni], plane_scale[0:nk]) \
      copyout(out[0:nk * nj * ni], row_bias[0:nk * nj], row_seen[0:nk * nj], plane_seen[0:nk])
  for (int k = 0; k < nk; k++) {
    float s = plane_scale[k];
    int plane = k * nj * ni;
    plane_seen[k] = 1;                       /* after-the-fact markers: idempotent */
    for (int j = 0; j < nj; j++) {
      float bias = (float)(j - k) * 0.5f;
      int base = plane + j * ni;
      for (int i = 0; i < ni; i++)
        out[base + i] = u[base + i] * s + bias;
      row_bias[k * nj + j] = bias;           /* code after the innermost loop */
      row_seen[k * nj + j] = k + j;
    }
  }
  int errors = 0;
  for (int k = 0; k < nk; k++) {
    if (plane_seen[k] != 1) { errors++; printf("FAIL plane_seen[%d] = %d\n", k, plane_seen[k]); }
    for (int j = 0; j < nj; j++) {
      float bias = (float)(j - k) * 0.5f;
      if (row_bias[k * nj + j] != bias || row_seen[k * nj + j] != k + j) {
        if (errors++ < 5) printf("FAIL row (%d,%d): bias %g seen %d\n", k, j, row_bias[k * nj + j], row_seen[k * nj + j]);
      }
      for (int i = 0; i < ni; i++) {
        int p = (k * nj + j) * ni + i;
        float e = u[p] * plane_scale[k] + bias;
        if (out[p] != e) {
          if (errors++ < 5) printf("FAIL out[%d] = %g, expected %g\n", p, out[p], e);
        }
      }
    }
  }
  free(u); free(out); free(plane_scale); free(row_bias); free(row_seen); free(plane_seen);
  return errors != 0;
}
