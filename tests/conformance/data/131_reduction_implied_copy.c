// A reduction variable on a compute construct is copied implicitly, even inside a data region.
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
  const int n = 2000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i % 9;
  long s = 100;
  #pragma acc data copyin(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i];
    PRESENT(&s, sizeof s, 0);                       /* not mapped by the data region */
  }
  long want = 100;
  for (int i = 0; i < n; i++) want += i % 9;
  CHECK(s == want);
  int mx = -1;
  #pragma acc enter data copyin(mx)
  #pragma acc parallel loop copyin(a[0:n]) reduction(max:mx)
  for (int i = 0; i < n; i++) if (a[i] > mx) mx = a[i];
  #pragma acc exit data copyout(mx)
  CHECK(mx == 8);
  free(a);
  if (errors == 0) printf("reduction implied copy ok\n");
  return errors != 0;
}
