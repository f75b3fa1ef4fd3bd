// update with if(condition): skipped when false, done when true.
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
  const int n = 200;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = 1;
  #pragma acc data copy(a[0:n])
  {
    for (int i = 0; i < n; i++) a[i] = 5;
    int push = 1;
    #pragma acc update device(a[0:n]) if(push)
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1;
    int pull = 0;
    #pragma acc update self(a[0:n]) if(pull)
    pull = 1;
    #pragma acc update self(a[0:n]) if(pull)
    for (int i = 0; i < n; i++) CHECK(a[i] == 6);
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == 6);
  free(a);
  if (errors == 0) printf("update if ok\n");
  return errors != 0;
}
