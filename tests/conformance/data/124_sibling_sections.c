// Disjoint sections of one array in sibling and nested data regions.
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
  #pragma acc data copy(a[0:250])
  {
    #pragma acc data copy(a[500:250])
    {
      PRESENT(a, 250 * sizeof(int), 1);
      PRESENT(a + 500, 250 * sizeof(int), 1);
      PRESENT(a + 250, 250 * sizeof(int), 0);
      #pragma acc parallel loop present(a[0:250])
      for (int i = 0; i < 250; i++) a[i] += 1000;
      #pragma acc parallel loop present(a[500:250])
      for (int i = 500; i < 750; i++) a[i] += 2000;
    }
    PRESENT(a + 500, 250 * sizeof(int), 0);
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == i + (i < 250 ? 1000 : (i >= 500 && i < 750) ? 2000 : 0));
  free(a);
  if (errors == 0) printf("sibling sections ok\n");
  return errors != 0;
}
