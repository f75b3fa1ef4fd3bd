// acc_set_device_type / acc_get_device_type: set to host and back to the original type.
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

static int run_region(int n) {
  int *a = malloc(n * sizeof(int));
  #pragma acc parallel loop copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i * 7;
  int bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != i * 7;
  free(a);
  return bad;
}

int main(void) {
  acc_device_t orig = acc_get_device_type();
  CHECK(run_region(100) == 0);
  acc_device_t cur = acc_get_device_type();
  CHECK(cur != acc_device_none);
  acc_set_device_type(acc_device_host);
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(run_region(500) == 0);
  int on_host = 0;
  #pragma acc parallel copyout(on_host)
  on_host = acc_on_device(acc_device_host);
  CHECK(on_host == 1);
  acc_set_device_type(cur);
  CHECK(acc_get_device_type() == cur);
  CHECK(run_region(300) == 0);
  printf("initial type %d, current %d\n", (int)orig, (int)cur);
  if (errors == 0) printf("acc_set/get_device_type ok\n");
  return errors != 0;
}
