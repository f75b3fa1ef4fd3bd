// acc_wait_device, acc_wait_all_device, acc_wait_device_async, acc_wait_all_device_async on device 0.
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
  const int n = 2000;
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) t = acc_device_default;
  int dev = acc_get_device_num(t);
  CHECK(dev >= 0);
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n]) async(1)
  for (int i = 0; i < n; i++) a[i] *= 2;
  acc_wait_device(1, dev);
  CHECK(acc_async_test_device(1, dev) != 0);
  #pragma acc parallel loop present(a[0:n]) async(2)
  for (int i = 0; i < n; i++) a[i] += 1;
  acc_wait_device_async(2, 3, dev);
  #pragma acc parallel loop present(a[0:n]) async(3)
  for (int i = 0; i < n; i++) a[i] *= 3;
  acc_wait_all_device_async(4, dev);
  #pragma acc update self(a[0:n]) async(4)
  acc_wait_all_device(dev);
  CHECK(acc_async_test_all_device(dev) != 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 3.0 * (2.0 * i + 1));
  #pragma acc exit data delete(a[0:n])
  free(a);
  if (errors == 0) printf("acc_wait device family ok\n");
  return errors != 0;
}
