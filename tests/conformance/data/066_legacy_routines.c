// Legacy routines: acc_pcopyin, acc_pcreate, acc_present_or_copyin, acc_present_or_create, acc_async_wait, acc_async_wait_all.
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
  const int n = 500;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  int *da = acc_present_or_copyin(a, n * sizeof(int));
  CHECK(da != NULL);
  CHECK(acc_pcopyin(a, n * sizeof(int)) == da);           /* already present */
  int *db = acc_present_or_create(b, n * sizeof(int));
  CHECK(db != NULL && acc_pcreate(b, n * sizeof(int)) == db);
  PRESENT(a, n * sizeof(int), 1);
  PRESENT(b, n * sizeof(int), 1);
  #pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
  for (int i = 0; i < n; i++) b[i] = a[i] + 1;
  acc_async_wait(1);
  #pragma acc parallel loop present(b[0:n]) async(2)
  for (int i = 0; i < n; i++) b[i] *= 3;
  acc_async_wait_all();
  acc_copyout(b, n * sizeof(int));
  acc_copyout(b, n * sizeof(int));
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == 3 * (i + 1));
  acc_delete(a, n * sizeof(int));
  acc_delete(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  free(a); free(b);
  if (errors == 0) printf("legacy routines ok\n");
  return errors != 0;
}
