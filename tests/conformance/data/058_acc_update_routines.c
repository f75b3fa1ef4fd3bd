// acc_update_device / acc_update_self (and _async) on whole arrays and subranges.
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
  const int n = 1000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  acc_copyin(a, n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = 2.0 * i;
  acc_update_device(a, n * sizeof(double));
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  acc_update_self(a + 100, 100 * sizeof(double));
  for (int i = 100; i < 200; i++) CHECK(a[i] == 2.0 * i + 1);
  acc_update_self(a, n * sizeof(double));
  for (int i = 0; i < n; i++) CHECK(a[i] == 2.0 * i + 1);
  a[0] = -50;
  acc_update_device_async(a, sizeof(double), 5);
  #pragma acc parallel loop present(a[0:n]) async(5)
  for (int i = 0; i < n; i++) a[i] *= 2;
  acc_update_self_async(a, n * sizeof(double), 5);
  acc_wait(5);
  CHECK(a[0] == -100);
  for (int i = 1; i < n; i++) CHECK(a[i] == 2 * (2.0 * i + 1));
  acc_delete(a, n * sizeof(double));
  free(a);
  if (errors == 0) printf("acc_update routines ok\n");
  return errors != 0;
}
