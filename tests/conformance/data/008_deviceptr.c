// deviceptr with acc_malloc'd memory: filled with acc_memcpy_to_device, used in regions, read back.
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

static void axpy_dev(int n, float a, float *x, float *y) {
  #pragma acc parallel loop deviceptr(x, y)
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

int main(void) {
  const int n = 5000;
  float *hx = malloc(n * sizeof(float)), *hy = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { hx[i] = i % 10; hy[i] = 1; }
  float *dx = acc_malloc(n * sizeof(float)), *dy = acc_malloc(n * sizeof(float));
  CHECK(dx != NULL && dy != NULL);
  acc_memcpy_to_device(dx, hx, n * sizeof(float));
  acc_memcpy_to_device(dy, hy, n * sizeof(float));
  axpy_dev(n, 2.0f, dx, dy);
  #pragma acc kernels deviceptr(dy)
  for (int i = 0; i < n; i++) dy[i] += 0.5f;
  #pragma acc data deviceptr(dx)
  {
    #pragma acc parallel loop deviceptr(dx)
    for (int i = 0; i < n; i++) dx[i] = -dx[i];
  }
  acc_memcpy_from_device(hy, dy, n * sizeof(float));
  acc_memcpy_from_device(hx, dx, n * sizeof(float));
  for (int i = 0; i < n; i++) { CHECK(hy[i] == 1.5f + 2.0f * (i % 10)); CHECK(hx[i] == -(float)(i % 10)); }
  acc_free(dx); acc_free(dy);
  free(hx); free(hy);
  if (errors == 0) printf("deviceptr ok\n");
  return errors != 0;
}
