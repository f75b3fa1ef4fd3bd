// create, then update device with host values, compute, then exit data copyout: the usual lifecycle.
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
  const int n = 3000;
  int *a = malloc(n * sizeof(int));
  #pragma acc enter data create(a[0:n])
  for (int i = 0; i < n; i++) a[i] = i % 97;
  #pragma acc update device(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * a[i];
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == (i % 97) * (i % 97));
  free(a);
  if (errors == 0) printf("create/update/copyout lifecycle ok\n");
  return errors != 0;
}
