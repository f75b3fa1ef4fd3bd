// present clauses increment the structured count: data survives an exit data finalize inside them.
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
  const int n = 256;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc data present(a[0:n])
  {
    #pragma acc exit data delete(a[0:n]) finalize
    PRESENT(a, n * sizeof(int), 1);            /* structured reference from present */
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 5;
    #pragma acc update self(a[0:n])
  }
  PRESENT(a, n * sizeof(int), 0);              /* both counts zero now */
  for (int i = 0; i < n; i++) CHECK(a[i] == 5 * i);
  acc_copyin(a, n * sizeof(int));
  #pragma acc parallel present(a[0:n])
  {
    #pragma acc loop
    for (int i = 0; i < n; i++) a[i] += 1;
  }
  PRESENT(a, n * sizeof(int), 1);
  acc_copyout(a, n * sizeof(int));
  for (int i = 0; i < n; i++) CHECK(a[i] == 5 * i + 1);
  free(a);
  if (errors == 0) printf("present increments ok\n");
  return errors != 0;
}
