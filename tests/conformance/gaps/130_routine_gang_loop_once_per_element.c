// A routine gang whose gang loop does a non-idempotent update (a[i] += 1, b[i] += x[i]) called gang-redundantly from
// parallel num_gangs(8): the calling gangs share the loop's iterations, so every element is updated exactly once;
// a gang loop holding worker and vector loops is shared the same way. OpenACC 3.3 §2.15.1 (routine gang), §2.9.2.
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine gang
static void bump(int n, int *a, float *b, const float *x) {
  #pragma acc loop gang
  for (int i = 0; i < n; i++) {
    a[i] += 1;
    b[i] += x[i];
  }
}

#pragma acc routine gang
static void bump_rows(int rows, int cols, int *m, int step) {
  #pragma acc loop gang
  for (int r = 0; r < rows; r++) {
    #pragma acc loop worker
    for (int c = 0; c < cols / 2; c++) m[r * cols + c] += step;
    #pragma acc loop vector
    for (int c = cols / 2; c < cols; c++) m[r * cols + c] += 2 * step;
  }
}

int main(void) {
  const int n = 1003, rows = 37, cols = 29;
  int *a = malloc(n * sizeof(int)), *a0 = malloc(n * sizeof(int));
  float *b = malloc(n * sizeof(float)), *b0 = malloc(n * sizeof(float)), *x = malloc(n * sizeof(float));
  int *m = malloc(rows * cols * sizeof(int)), *m0 = malloc(rows * cols * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) {
    a[i] = a0[i] = rand() % 1000;
    b[i] = b0[i] = (float)(rand() % 100) * 0.5f;
    x[i] = (float)(rand() % 16) * 0.25f;
  }
  for (int p = 0; p < rows * cols; p++) m[p] = m0[p] = rand() % 50;
  #pragma acc parallel num_gangs(8) copy(a[0:n], b[0:n]) copyin(x[0:n])
  {
    bump(n, a, b, x);
  }
  #pragma acc parallel num_gangs(8) num_workers(4) vector_length(8) copy(m[0:rows * cols])
  {
    bump_rows(rows, cols, m, 3);
    bump_rows(rows, cols, m, 5);
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != a0[i] + 1) {
      if (errors++ < 5) printf("FAIL a[%d] = %d, expected %d\n", i, a[i], a0[i] + 1);
    }
    if (b[i] != b0[i] + x[i]) {
      if (errors++ < 10) printf("FAIL b[%d] = %g, expected %g\n", i, b[i], b0[i] + x[i]);
    }
  }
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      int e = m0[r * cols + c] + (c < cols / 2 ? 8 : 16);
      if (m[r * cols + c] != e) {
        if (errors++ < 15) printf("FAIL m[%d][%d] = %d, expected %d\n", r, c, m[r * cols + c], e);
      }
    }
  free(a); free(a0); free(b); free(b0); free(x); free(m); free(m0);
  return errors != 0;
}
