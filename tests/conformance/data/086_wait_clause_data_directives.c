// wait clauses on enter data, update and exit data order them after other queues.
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
  const int n = 2500;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  #pragma acc enter data copyin(a[0:n]) async(1)
  #pragma acc enter data create(b[0:n]) wait(1) async(2)
  #pragma acc parallel loop present(a[0:n], b[0:n]) wait(2) async(3)
  for (int i = 0; i < n; i++) b[i] = 2 * a[i];
  #pragma acc update self(b[0:n]) wait(3) async(4)
  #pragma acc exit data delete(a[0:n]) wait(4)
  #pragma acc wait(4)
  for (int i = 0; i < n; i++) CHECK(b[i] == 2 * i);
  #pragma acc exit data delete(b[0:n]) wait
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  free(a); free(b);
  if (errors == 0) printf("wait clauses on data directives ok\n");
  return errors != 0;
}
