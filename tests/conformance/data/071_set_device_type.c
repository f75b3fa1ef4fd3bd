// set device_type(host) switches the current device type; regions still compute correctly.
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

static int sum_region(int n) {
  int s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < n; i++) s += i % 7;
  return s;
}

int main(void) {
  acc_device_t orig = acc_get_device_type();
  int want = 0;
  for (int i = 0; i < 1000; i++) want += i % 7;
  CHECK(sum_region(1000) == want);
  acc_device_t cur = acc_get_device_type();
  #pragma acc set device_type(host)
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(sum_region(1000) == want);
  int on_host = 0;
  #pragma acc serial copyout(on_host)
  on_host = acc_on_device(acc_device_host);
  CHECK(on_host == 1);
  acc_set_device_type(cur);
  CHECK(acc_get_device_type() == cur);
  CHECK(sum_region(999) == want - 998 % 7 - 999 % 7 + 998 % 7);
  printf("types: initial %d, used %d\n", (int)orig, (int)cur);
  if (errors == 0) printf("set device_type ok\n");
  return errors != 0;
}
