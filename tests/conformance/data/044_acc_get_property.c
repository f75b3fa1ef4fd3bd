// acc_get_property and acc_get_property_string: name/vendor/driver strings and memory sizes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  acc_device_t t = acc_device_host;
  const char *name = acc_get_property_string(0, t, acc_property_name);
  const char *vendor = acc_get_property_string(0, t, acc_property_vendor);
  const char *driver = acc_get_property_string(0, t, acc_property_driver);
  CHECK(name != NULL && strlen(name) > 0);
  CHECK(vendor != NULL && strlen(vendor) > 0);
  CHECK(driver != NULL);
  size_t mem = acc_get_property(0, t, acc_property_memory);
  size_t freemem = acc_get_property(0, t, acc_property_free_memory);
  CHECK(freemem <= mem || mem == 0);
#ifndef ACCJIT_GCC_VALIDATION
  /* an invalid device number gives 0 / NULL (libgomp 12 aborts here instead) */
  CHECK(acc_get_property(1000, t, acc_property_memory) == 0);
  CHECK(acc_get_property_string(1000, t, acc_property_name) == NULL);
#endif
  /* numeric properties queried as strings (and the reverse) have no value */
  CHECK(acc_get_property(0, t, acc_property_name) == 0);
  acc_device_t cur = acc_get_device_type();
  if (cur != acc_device_none) {
    const char *cname = acc_get_property_string(acc_get_device_num(cur), cur, acc_property_name);
    CHECK(cname != NULL);
    if (cname) printf("current device: %s\n", cname);
  }
  printf("host device: %s / %s / %s, memory %zu\n", name ? name : "?", vendor ? vendor : "?", driver ? driver : "?", mem);
  if (errors == 0) printf("acc_get_property ok\n");
  return errors != 0;
}
