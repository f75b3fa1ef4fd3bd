// exit data copyout async: host values are final only after the wait.
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
  const int n = 5000;
  long *a = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n]) async(1)
  #pragma acc parallel loop present(a[0:n]) async(1)
  for (int i = 0; i < n; i++) a[i] = a[i] * 3 - 1;
  #pragma acc exit data copyout(a[0:n]) async(1)
  acc_wait(1);
  PRESENT(a, n * sizeof(long), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 3L * i - 1);
  acc_copyin_async(a, n * sizeof(long), 2);
  acc_wait(2);
  PRESENT(a, n * sizeof(long), 1);
  acc_delete(a, n * sizeof(long));
  free(a);
  if (errors == 0) printf("async exit data ok\n");
  return errors != 0;
}
