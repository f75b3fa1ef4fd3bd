// copyin on the data construct and on compute constructs; copyin of scalars and structs.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* accjit keeps a present table on every device (shared-memory ones too). gcc's host fallback,
   used only to validate this file, reports all memory present, so presence checks are skipped. */
#ifdef ACCJIT_GCC_VALIDATION
#define TRACKED 0
#else
#define TRACKED 1
#endif
static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)
#define PRESENT(p, n, want) do { if (TRACKED && (acc_is_present((p), (n)) != 0) != (want)) { \
    printf("FAIL line %d: acc_is_present(%s) != %d\n", __LINE__, #p, (want)); errors++; } } while (0)

typedef struct { int n; double w[4]; } params;

int main(void) {
  const int n = 2000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { x[i] = i % 100; y[i] = 0; }
  params p = {n, {0.5, 0.25, 0.125, 0.0625}};
  #pragma acc data copyin(x[0:n], p) copyout(y[0:n])
  {
    PRESENT(x, n * sizeof(float), 1);
    PRESENT(&p, sizeof p, 1);
    #pragma acc parallel loop present(x[0:n], y[0:n], p)
    for (int i = 0; i < p.n; i++) y[i] = x[i] * (float)p.w[i % 4];
  }
  PRESENT(x, n * sizeof(float), 0);
  for (int i = 0; i < n; i++) CHECK(y[i] == (float)(i % 100) * (float)(0.5 / (1 << (i % 4))));
  int k = 9;
  #pragma acc parallel loop copyin(x[0:n], k) copyout(y[0:n])
  for (int i = 0; i < n; i++) y[i] = x[i] + k;
  for (int i = 0; i < n; i++) CHECK(y[i] == (float)(i % 100 + 9));
  #pragma acc kernels copyin(x[10:20]) copyout(y[10:20])
  for (int i = 10; i < 30; i++) y[i] = -x[i];
  for (int i = 10; i < 30; i++) CHECK(y[i] == -(float)(i % 100));
  free(x); free(y);
  if (errors == 0) printf("copyin ok\n");
  return errors != 0;
}
