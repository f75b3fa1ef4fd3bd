// acc_get_num_devices for host, the current type and not_host; consistent with device numbers.
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
  int nhost = acc_get_num_devices(acc_device_host);
  CHECK(nhost >= 1);
  acc_device_t t = acc_get_device_type();
  if (t != acc_device_none) {
    int ncur = acc_get_num_devices(t);
    CHECK(ncur >= 1);
    int num = acc_get_device_num(t);
    CHECK(num >= 0 && num < ncur);
  }
  int nnot = acc_get_num_devices(acc_device_not_host);
  CHECK(nnot >= 0);
  int ndef = acc_get_num_devices(acc_device_default);
  CHECK(ndef >= 1);
  CHECK(acc_get_num_devices(acc_device_host) == nhost);      /* stable across calls */
  printf("host: %d, not_host: %d, default: %d\n", nhost, nnot, ndef);
  if (errors == 0) printf("acc_get_num_devices ok\n");
  return errors != 0;
}
