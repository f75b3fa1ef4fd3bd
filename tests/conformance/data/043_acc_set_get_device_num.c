// acc_set_device_num / acc_get_device_num: device 0 of the current type; -1 for types with none.
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
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  int n = acc_get_num_devices(t);
  CHECK(n >= 1);
  acc_set_device_num(0, t);
  CHECK(acc_get_device_num(t) == 0);
  CHECK(acc_get_device_type() == t);
  int v[64];
  #pragma acc parallel loop copyout(v)
  for (int i = 0; i < 64; i++) v[i] = i ^ 5;
  for (int i = 0; i < 64; i++) CHECK(v[i] == (i ^ 5));
  acc_set_device_num(n - 1, t);
  CHECK(acc_get_device_num(t) == n - 1);
  acc_set_device_num(0, acc_device_host);
  CHECK(acc_get_device_num(acc_device_host) == 0);
  acc_set_device_type(t);
  acc_set_device_num(0, t);
  if (errors == 0) printf("acc_set/get_device_num ok\n");
  return errors != 0;
}
