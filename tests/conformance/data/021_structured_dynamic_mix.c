// Mixing structured and dynamic lifetimes: enter data inside a data region outlives it.
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
  const int n = 640;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  #pragma acc data copyin(a[0:n])
  {
    #pragma acc enter data copyin(a[0:n], b[0:n])
    PRESENT(a, n * sizeof(int), 1);
  }
  PRESENT(a, n * sizeof(int), 1);            /* dynamic count keeps it */
  PRESENT(b, n * sizeof(int), 1);
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] += a[i];
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == 3 * i);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = 7;
  }
  PRESENT(a, n * sizeof(int), 1);            /* structured exit does not remove dynamic refs */
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 7);
  free(a); free(b);
  if (errors == 0) printf("structured/dynamic mix ok\n");
  return errors != 0;
}
