// Validation-suite style kernels tests: kernels loop levels, kernels async + wait, kernels data.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define SEED 31
#define N 1024
#define PRECISION 1e-12

static int test_kernels_loop_levels(void) {
  int err = 0;
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  srand(SEED);
  for (int i = 0; i < N; i++) { a[i] = rand() / (double)RAND_MAX; b[i] = 0; }
  #pragma acc kernels copyin(a[0:N]) copyout(b[0:N])
  {
    #pragma acc loop gang worker vector
    for (int i = 0; i < N; i++) b[i] = 2 * a[i];
  }
  for (int i = 0; i < N; i++) if (fabs(b[i] - 2 * a[i]) > PRECISION) err++;
  free(a); free(b);
  return err;
}

static int test_kernels_async(void) {
  int err = 0, *a = malloc(N * sizeof(int)), *b = malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
  #pragma acc data copyin(a[0:N]) copyout(b[0:N])
  {
    #pragma acc kernels async(1)
    for (int i = 0; i < N; i++) b[i] = a[i] + 1;
    #pragma acc kernels async(1)
    for (int i = 0; i < N; i++) b[i] *= 2;
    #pragma acc wait(1)
  }
  for (int i = 0; i < N; i++) if (b[i] != 2 * (i + 1)) err++;
  free(a); free(b);
  return err;
}

static int test_kernels_present(void) {
  int err = 0;
  float *x = malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) x[i] = i;
  #pragma acc enter data copyin(x[0:N])
  #pragma acc kernels present(x[0:N])
  for (int i = 0; i < N; i++) x[i] = x[i] * x[i];
  #pragma acc exit data copyout(x[0:N])
  for (int i = 0; i < N; i++) if (x[i] != (float)i * i) err++;
  free(x);
  return err;
}

int main(void) {
  int failcode = 0;
  if (test_kernels_loop_levels()) { failcode |= 1; printf("FAIL loop levels\n"); }
  if (test_kernels_async()) { failcode |= 2; printf("FAIL kernels async\n"); }
  if (test_kernels_present()) { failcode |= 4; printf("FAIL kernels present\n"); }
  if (failcode == 0) printf("kernels suite ok\n");
  return failcode;
}
