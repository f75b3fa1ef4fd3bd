// no_create on data that is present: the present copy is used and the count goes up and down.
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
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc data no_create(a[0:n])
  {
    PRESENT(a, n * sizeof(int), 1);
    #pragma acc parallel loop no_create(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 10;
  }
  PRESENT(a, n * sizeof(int), 1);           /* dynamic reference still holds it */
  #pragma acc exit data copyout(a[0:n])
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 10);
  #pragma acc data copy(a[0:n])
  {
    #pragma acc kernels no_create(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * (i + 10));
  free(a);
  if (errors == 0) printf("no_create on present data ok\n");
  return errors != 0;
}
