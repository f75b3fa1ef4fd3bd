// acc_set_default_async / acc_get_default_async: async without an argument uses the default queue.
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
  const int n = 2000;
  int initial = acc_get_default_async();
  acc_set_default_async(6);
  CHECK(acc_get_default_async() == 6);
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n]) async
  for (int i = 0; i < n; i++) a[i] += 10;
  #pragma acc parallel loop present(a[0:n]) async(acc_async_noval)
  for (int i = 0; i < n; i++) a[i] *= 2;
  acc_wait(6);                                 /* both went to the default queue 6 */
  CHECK(acc_async_test(6) != 0);
  #pragma acc update self(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * (i + 10));
  acc_set_default_async(acc_async_default);
  CHECK(acc_get_default_async() == initial);
  #pragma acc exit data delete(a[0:n])
  free(a);
  printf("initial default async %d\n", initial);
  if (errors == 0) printf("default async ok\n");
  return errors != 0;
}
