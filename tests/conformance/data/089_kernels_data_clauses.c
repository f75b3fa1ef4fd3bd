// Data clauses and default(present) on kernels with several loop nests and scalar results.
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
  const int n = 1500;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i % 50;
  int mx = 0;
  #pragma acc kernels copyin(a[0:n]) create(b[0:n]) copy(mx)
  {
    for (int i = 0; i < n; i++) b[i] = a[i] * 3;
    for (int i = 0; i < n; i++) if (b[i] > mx) mx = b[i];
  }
  CHECK(mx == 147);
  PRESENT(b, n * sizeof(int), 0);
  #pragma acc enter data copyin(a[0:n]) create(b[0:n])
  #pragma acc kernels default(present)
  {
    for (int i = 0; i < n; i++) b[i] = a[n - 1 - i];
    for (int i = 0; i < n; i++) a[i] = b[i] + a[i];
  }
  #pragma acc exit data copyout(a[0:n]) delete(b[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == (n - 1 - i) % 50 + i % 50);
  free(a); free(b);
  if (errors == 0) printf("kernels data clauses ok\n");
  return errors != 0;
}
