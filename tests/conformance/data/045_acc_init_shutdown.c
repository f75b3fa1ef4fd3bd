// acc_init and acc_shutdown: regions work after init, and again after shutdown and a new init.
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

static int region_ok(int n) {
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + 1;
  int bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != i * 0.5 + 1;
  free(a);
  return bad == 0;
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) t = acc_device_default;
  acc_init(t);                                 /* first thing the program does */
  acc_device_t cur = acc_get_device_type();
  CHECK(cur != acc_device_none);
  CHECK(region_ok(1000));
  int *keep = malloc(64 * sizeof(int));
  #pragma acc enter data create(keep[0:64])
  PRESENT(keep, 64 * sizeof(int), 1);
  acc_shutdown(cur);
  PRESENT(keep, 64 * sizeof(int), 0);          /* shutdown deallocates present data */
  acc_init(cur);
  CHECK(acc_get_device_type() == cur);
  CHECK(region_ok(777));
  acc_shutdown(cur);
  acc_init(cur);
  CHECK(region_ok(50));
  free(keep);
  if (errors == 0) printf("acc_init/acc_shutdown ok\n");
  return errors != 0;
}
