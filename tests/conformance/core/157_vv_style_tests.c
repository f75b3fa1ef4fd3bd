// Shaped like external validation suites: test functions with rand()-filled inputs returning
// an error count, a PRECISION tolerance, and a main that ORs failure bits together.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <openacc.h>

#define SEED 123
#define n 1024
#define PRECISION 1e-8
typedef double real_t;

static int test_copy(void) {
  int err = 0;
  srand(SEED);
  real_t *a = (real_t *)malloc(n * sizeof(real_t)), *b = (real_t *)malloc(n * sizeof(real_t));
  for (int x = 0; x < n; ++x) { a[x] = rand() / (real_t)(RAND_MAX / 10); b[x] = 0.0; }
  #pragma acc data copyin(a[0:n]) copy(b[0:n])
  {
    #pragma acc parallel
    {
      #pragma acc loop
      for (int x = 0; x < n; ++x) b[x] = a[x];
    }
  }
  for (int x = 0; x < n; ++x) if (fabs(a[x] - b[x]) > PRECISION) err += 1;
  free(a); free(b);
  return err;
}

static int test_reduction(void) {
  int err = 0;
  srand(SEED);
  real_t *a = (real_t *)malloc(n * sizeof(real_t)), total = 10.0, host_total = 10.0;
  for (int x = 0; x < n; ++x) a[x] = rand() / (real_t)(RAND_MAX / 10);
  #pragma acc parallel loop reduction(+:total) copyin(a[0:n])
  for (int x = 0; x < n; ++x) total += a[x];
  for (int x = 0; x < n; ++x) host_total += a[x];
  if (fabs(total - host_total) > PRECISION * n) err += 1;
  free(a);
  return err;
}

static int test_kernels_if(void) {
  int err = 0, *a = (int *)malloc(n * sizeof(int));
  for (int x = 0; x < n; ++x) a[x] = x;
  int data_on_device = 0;
  #pragma acc kernels if(data_on_device) copy(a[0:n])
  for (int x = 0; x < n; ++x) a[x] += 1;
  for (int x = 0; x < n; ++x) if (a[x] != x + 1) err += 1;
  free(a);
  return err;
}

int main(void) {
  int failcode = 0, failed;
  failed = test_copy();
  if (failed != 0) { failcode = failcode + (1 << 0); printf("test_copy failed %d\n", failed); }
  failed = test_reduction();
  if (failed != 0) { failcode = failcode + (1 << 1); printf("test_reduction failed\n"); }
  failed = test_kernels_if();
  if (failed != 0) { failcode = failcode + (1 << 2); printf("test_kernels_if failed\n"); }
  if (failcode == 0) printf("validation-suite style tests ok\n");
  return failcode;
}
