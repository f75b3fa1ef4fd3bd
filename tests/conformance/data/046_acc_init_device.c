// acc_init_device and acc_shutdown_device on device 0 of the current type.
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
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) t = acc_device_default;
  acc_init_device(0, t);
  acc_device_t cur = acc_get_device_type();
  CHECK(cur != acc_device_none);
  CHECK(acc_get_device_num(cur) == 0);
  int a[100];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < 100; i++) a[i] = 100 - i;
  for (int i = 0; i < 100; i++) CHECK(a[i] == 100 - i);
  acc_shutdown_device(0, cur);
  acc_init_device(0, cur);
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < 100; i++) a[i] *= 2;
  for (int i = 0; i < 100; i++) CHECK(a[i] == 2 * (100 - i));
  if (errors == 0) printf("acc_init_device/acc_shutdown_device ok\n");
  return errors != 0;
}
