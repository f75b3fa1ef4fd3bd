// acc_memcpy_device (and _async) between device buffers; zero bytes and dest == src do nothing.
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

int main(void) {
  const int n = 1000;
  float *h = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = i * 0.5f;
  float *d1 = acc_malloc(n * sizeof(float)), *d2 = acc_malloc(n * sizeof(float));
  acc_memcpy_to_device(d1, h, n * sizeof(float));
  acc_memcpy_device(d2, d1, n * sizeof(float));
  #pragma acc parallel loop deviceptr(d2)
  for (int i = 0; i < n; i++) d2[i] += 1.0f;
  acc_memcpy_device(d1, d1, n * sizeof(float));
  acc_memcpy_device(d1, d2, 0);
  acc_memcpy_from_device(h, d1, n * sizeof(float));
  for (int i = 0; i < n; i++) CHECK(h[i] == i * 0.5f);
  acc_memcpy_device_async(d1 + 100, d2 + 100, 50 * sizeof(float), 1);
  acc_wait(1);
  acc_memcpy_from_device(h, d1, n * sizeof(float));
  for (int i = 0; i < n; i++) CHECK(h[i] == i * 0.5f + ((i >= 100 && i < 150) ? 1.0f : 0.0f));
  acc_free(d1); acc_free(d2);
  free(h);
  if (errors == 0) printf("acc_memcpy_device ok\n");
  return errors != 0;
}
