// Data regions in recursive functions: every level's region ends when that level returns.
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

static long depth_sum(int *a, int n, int level) {
  long below = 0;
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += level;
    if (level > 1) below = depth_sum(a, n, level - 1);
    PRESENT(a, n * sizeof(int), 1);
  }
  return below + level;
}

int main(void) {
  const int n = 200;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  long s = depth_sum(a, n, 6);
  PRESENT(a, n * sizeof(int), 0);
  CHECK(s == 21);
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 21);
  #pragma acc enter data copyin(a[0:n])
  s = depth_sum(a, n, 3);
  PRESENT(a, n * sizeof(int), 1);
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 27);
  free(a);
  if (errors == 0) printf("data regions in recursion ok\n");
  return errors != 0;
}
