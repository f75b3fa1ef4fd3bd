// set device_num(0) (and with device_type) selects device 0; acc_get_device_num agrees.
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
  #pragma acc set device_num(0)
  CHECK(acc_get_device_num(t) == 0);
  CHECK(acc_get_device_type() == t);
  int x[50];
  #pragma acc parallel loop copyout(x)
  for (int i = 0; i < 50; i++) x[i] = 3 * i;
  for (int i = 0; i < 50; i++) CHECK(x[i] == 3 * i);
  #pragma acc set device_type(host) device_num(0)
  CHECK(acc_get_device_type() == acc_device_host && acc_get_device_num(acc_device_host) == 0);
  #pragma acc parallel loop copy(x)
  for (int i = 0; i < 50; i++) x[i] += 1;
  for (int i = 0; i < 50; i++) CHECK(x[i] == 3 * i + 1);
  acc_set_device_type(t);
  if (errors == 0) printf("set device_num ok\n");
  return errors != 0;
}
