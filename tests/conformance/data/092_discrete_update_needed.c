// expect: discrete
// Device results reach the host only through copyout/update: before update self the host copy is stale.
// (gcc 12 validates this file by compiling it; its shared-memory host fallback cannot observe this.)
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
  const int n = 100;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = 1.0;
  #pragma acc data copyin(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = 2.0;
    for (int i = 0; i < n; i++) CHECK(a[i] == 1.0);     /* host copy unchanged */
    #pragma acc update self(a[0:n/2])
    for (int i = 0; i < n; i++) CHECK(a[i] == (i < n / 2 ? 2.0 : 1.0));
  }
  for (int i = n / 2; i < n; i++) CHECK(a[i] == 1.0);    /* copyin never copies back */
  free(a);
  if (errors == 0) printf("discrete update ok\n");
  return errors != 0;
}
