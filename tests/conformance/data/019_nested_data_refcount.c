// Structured reference counts in nested data regions: data stays until the outermost region ends.
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

static void inner(int *a, int n, int depth) {
  #pragma acc data copy(a[0:n])
  {
    PRESENT(a, n * sizeof(int), 1);
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += depth;
    if (depth < 4) inner(a, n, depth + 1);
    PRESENT(a, n * sizeof(int), 1);
  }
}

int main(void) {
  const int n = 256;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  inner(a, n, 1);
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 1 + 2 + 3 + 4);
  #pragma acc data create(a[0:n])
  {
    #pragma acc data copyin(a[0:n / 2])
    {
      PRESENT(a, n * sizeof(int), 1);
      PRESENT(a, n / 2 * sizeof(int), 1);
    }
    PRESENT(a, n * sizeof(int), 1);
  }
  PRESENT(a, n * sizeof(int), 0);
  free(a);
  if (errors == 0) printf("nested data regions ok\n");
  return errors != 0;
}
