// enter data / exit data around compute regions in different functions (unstructured lifetime).
#include <stdio.h>
#include <stdlib.h>

static void init_device(float *a, float *b, int n) {
  #pragma acc enter data copyin(a[0:n]) create(b[0:n])
}
static void compute(float *a, float *b, int n, float s) {
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] * s + b[i] * 0.0f;
}
static void accumulate(float *a, float *b, int n) {
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) a[i] += b[i];
}
static void finish(float *a, float *b, int n) {
  #pragma acc exit data copyout(a[0:n]) delete(b[0:n])
}

int main(void) {
  const int n = 4096;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = (float)(i % 64); b[i] = 0.0f; }
  init_device(a, b, n);
  for (int step = 0; step < 3; step++) {
    compute(a, b, n, 0.5f);
    accumulate(a, b, n);            /* a *= 1.5 each step */
  }
  finish(a, b, n);
  int errors = 0;
  for (int i = 0; i < n; i++) {
    float want = (float)(i % 64) * 1.5f * 1.5f * 1.5f;
    if (a[i] != want) { errors++; printf("FAIL a[%d] = %g want %g\n", i, a[i], want); break; }
  }
  free(a); free(b);
  if (errors == 0) printf("enter/exit data ok\n");
  return errors != 0;
}
