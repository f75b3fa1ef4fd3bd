// routine gang: called in gang-redundant mode from a parallel region; it holds a gang loop.
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine gang
static void add_vectors(int n, const float *a, const float *b, float *c) {
  #pragma acc loop gang vector
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}

#pragma acc routine gang
static void square_all(int n, float *c) {
  #pragma acc loop gang
  for (int i = 0; i < n; i++) c[i] = c[i] * c[i];
}

int main(void) {
  const int n = 10000;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = (float)(i % 100); b[i] = (float)(i % 7) - 3.0f; }
  #pragma acc parallel num_gangs(4) copyin(a[0:n], b[0:n]) copyout(c[0:n])
  {
    add_vectors(n, a, b, c);
  }
  #pragma acc parallel copy(c[0:n])
  square_all(n, c);
  int errors = 0;
  for (int i = 0; i < n; i++) {
    float s = (float)(i % 100) + (float)(i % 7) - 3.0f;
    if (c[i] != s * s) { errors++; printf("FAIL c[%d] = %g\n", i, c[i]); break; }
  }
  free(a); free(b); free(c);
  if (errors == 0) printf("routine gang ok\n");
  return errors != 0;
}
