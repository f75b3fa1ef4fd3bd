// acc_async_test, acc_async_test_all and the _device forms: true once queued work has finished.
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
  const int n = 3000;
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  CHECK(acc_async_test(11) != 0);                /* an unused queue is idle */
  CHECK(acc_async_test_all() != 0);
  #pragma acc parallel loop present(a[0:n]) async(11)
  for (int i = 0; i < n; i++) a[i] = a[i] * 0.5f;
  int spins = 0;
  while (!acc_async_test(11) && spins < 100000000) spins++;   /* poll until done */
  CHECK(acc_async_test(11) != 0);
  #pragma acc parallel loop present(a[0:n]) async(12)
  for (int i = 0; i < n; i++) a[i] += 1.0f;
  acc_wait(12);
  CHECK(acc_async_test(12) != 0);
  int dev = acc_get_device_num(acc_get_device_type());
  CHECK(acc_async_test_device(12, dev) != 0);
  CHECK(acc_async_test_all_device(dev) != 0);
  CHECK(acc_async_test_all() != 0);
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == i * 0.5f + 1.0f);
  free(a);
  if (errors == 0) printf("acc_async_test family ok\n");
  return errors != 0;
}
