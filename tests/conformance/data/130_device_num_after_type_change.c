// acc_get_device_num follows acc_set_device_type; regions after each switch are correct.
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

static long total(int n) {
  long s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < n; i++) s += i;
  return s;
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  CHECK(total(1000) == 499500);
  int num = acc_get_device_num(t);
  CHECK(num >= 0);
  acc_set_device_type(acc_device_host);
  CHECK(acc_get_device_num(acc_device_host) >= 0);
  CHECK(total(100) == 4950);
  acc_set_device_type(t);
  CHECK(acc_get_device_num(t) == num);
  CHECK(total(10) == 45);
  if (errors == 0) printf("device number after type changes ok\n");
  return errors != 0;
}
