// acc_memcpy_to_device_async / acc_memcpy_from_device_async on one queue keep their order.
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
  const int n = 5000;
  int *h = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { h[i] = i; out[i] = -1; }
  int *d = acc_malloc(n * sizeof(int));
  acc_memcpy_to_device_async(d, h, n * sizeof(int), 4);
  #pragma acc parallel loop deviceptr(d) async(4)
  for (int i = 0; i < n; i++) d[i] = d[i] * 2 + 1;
  acc_memcpy_from_device_async(out, d, n * sizeof(int), 4);
  acc_wait(4);
  for (int i = 0; i < n; i++) CHECK(out[i] == 2 * i + 1);
  acc_memcpy_to_device_async(d, h, 0, 4);
  acc_memcpy_from_device_async(out, d, 0, acc_async_sync);
  acc_wait(4);
  acc_free(d);
  free(h); free(out);
  if (errors == 0) printf("async memcpy ok\n");
  return errors != 0;
}
