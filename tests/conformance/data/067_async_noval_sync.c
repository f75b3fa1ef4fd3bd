// acc_async_noval and acc_async_sync as async arguments to clauses, directives and routines.
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
  const int n = 1500;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  CHECK(acc_async_noval < 0 && acc_async_sync < 0 && acc_async_noval != acc_async_sync);
  #pragma acc enter data copyin(a[0:n]) async(acc_async_sync)
  PRESENT(a, n * sizeof(double), 1);                     /* synchronous: done already */
  #pragma acc parallel loop present(a[0:n]) async(acc_async_sync)
  for (int i = 0; i < n; i++) a[i] += 1;
  #pragma acc update self(a[0:n]) async(acc_async_sync)
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 1);
  #pragma acc parallel loop present(a[0:n]) async(acc_async_noval)
  for (int i = 0; i < n; i++) a[i] *= 2;
  #pragma acc wait(acc_async_noval)
  acc_update_self_async(a, n * sizeof(double), acc_async_noval);
  acc_wait(acc_async_noval);
  for (int i = 0; i < n; i++) CHECK(a[i] == 2.0 * (i + 1));
  acc_update_device_async(a, n * sizeof(double), acc_async_sync);
  #pragma acc exit data delete(a[0:n]) async(acc_async_noval)
  acc_wait_all();
  PRESENT(a, n * sizeof(double), 0);
  free(a);
  if (errors == 0) printf("acc_async_noval/acc_async_sync ok\n");
  return errors != 0;
}
