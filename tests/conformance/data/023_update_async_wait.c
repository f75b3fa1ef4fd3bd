// update with async and wait clauses; update inside a loop over time steps.
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
  const int n = 4000;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = 1; b[i] = 0; }
  #pragma acc enter data copyin(a[0:n], b[0:n])
  for (int step = 0; step < 5; step++) {
    #pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
    for (int i = 0; i < n; i++) b[i] += a[i];
    #pragma acc update self(b[0:n]) async(1)
    #pragma acc wait(1)
    for (int i = 0; i < n; i++) CHECK(b[i] == step + 1);
    for (int i = 0; i < n; i++) a[i] = a[i] + 0;
    #pragma acc update device(a[0:n]) async(2) wait(1)
  }
  #pragma acc wait
  #pragma acc update self(a[0:n]) wait(2)
  #pragma acc exit data delete(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 1);
  if (errors > 5) printf("(%d failed checks)\n", errors);
  free(a); free(b);
  if (errors == 0) printf("update async ok\n");
  return errors != 0;
}
