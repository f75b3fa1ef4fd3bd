// routine worker (a worker loop holding a vector loop, and a loop without a level) and routine vector (a vector loop
// with a reduction) called from gang loops and from a worker loop: each call runs all of its loops' iterations,
// whatever the partitioning. OpenACC 3.3 §2.15.1: a routine worker may contain worker and vector loops, a routine
// vector vector loops.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#pragma acc routine vector
static float dot(int n, const float *u, const float *v) {
  float s = 0.0f;
  #pragma acc loop vector reduction(+:s)
  for (int k = 0; k < n; k++) s += u[k] * v[k];
  return s;
}

#pragma acc routine worker
static void scale_block(int rows, int cols, float *blk, const float *w) {
  #pragma acc loop worker
  for (int r = 0; r < rows; r++) {
    #pragma acc loop vector
    for (int c = 0; c < cols; c++) blk[r * cols + c] = blk[r * cols + c] * w[c] + (float)r;
  }
  #pragma acc loop
  for (int c = 0; c < cols; c++) blk[c] += 1.0f;
}

int main(void) {
  const int nb = 13, rows = 9, cols = 17, n = 64;
  float *blk = malloc(nb * rows * cols * sizeof(float)), *ref = malloc(nb * rows * cols * sizeof(float));
  float *w = malloc(cols * sizeof(float));
  float *u = malloc(nb * n * sizeof(float)), *v = malloc(n * sizeof(float)), *d = malloc(nb * sizeof(float));
  float *dd = malloc(nb * rows * sizeof(float));
  srand(42);
  for (int p = 0; p < nb * rows * cols; p++) blk[p] = ref[p] = (float)(rand() % 100) * 0.125f;
  for (int c = 0; c < cols; c++) w[c] = (float)(rand() % 8) * 0.5f;
  for (int p = 0; p < nb * n; p++) u[p] = (float)(rand() % 32) * 0.25f;
  for (int k = 0; k < n; k++) v[k] = (float)(rand() % 32) * 0.125f;
  #pragma acc parallel num_gangs(4) num_workers(2) vector_length(8) copy(blk[0:nb * rows * cols]) copyin(w[0:cols])
  {
    #pragma acc loop gang
    for (int b = 0; b < nb; b++) scale_block(rows, cols, blk + b * rows * cols, w);
  }
  #pragma acc parallel num_gangs(5) vector_length(16) copyin(u[0:nb * n], v[0:n]) copyout(d[0:nb], dd[0:nb * rows])
  {
    #pragma acc loop gang
    for (int b = 0; b < nb; b++) d[b] = dot(n, u + b * n, v);
    #pragma acc loop gang worker
    for (int p = 0; p < nb * rows; p++) dd[p] = dot(n - p % 7, u + (p % nb) * n, v);
  }
  for (int b = 0; b < nb; b++) {
    float *x = ref + b * rows * cols;
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) x[r * cols + c] = x[r * cols + c] * w[c] + (float)r;
    for (int c = 0; c < cols; c++) x[c] += 1.0f;
  }
  int errors = 0;
  for (int p = 0; p < nb * rows * cols; p++)
    if (blk[p] != ref[p]) {
      if (errors++ < 5) printf("FAIL blk[%d] = %g, expected %g\n", p, blk[p], ref[p]);
    }
  for (int b = 0; b < nb; b++) {
    float s = 0.0f;
    for (int k = 0; k < n; k++) s += u[b * n + k] * v[k];
    if (fabsf(d[b] - s) > 1e-3f * fabsf(s) + 1e-3f) {
      if (errors++ < 10) printf("FAIL d[%d] = %g, expected %g\n", b, d[b], s);
    }
  }
  for (int p = 0; p < nb * rows; p++) {
    float s = 0.0f;
    for (int k = 0; k < n - p % 7; k++) s += u[(p % nb) * n + k] * v[k];
    if (fabsf(dd[p] - s) > 1e-3f * fabsf(s) + 1e-3f) {
      if (errors++ < 15) printf("FAIL dd[%d] = %g, expected %g\n", p, dd[p], s);
    }
  }
  free(blk); free(ref); free(w); free(u); free(v); free(d); free(dd);
  return errors != 0;
}
