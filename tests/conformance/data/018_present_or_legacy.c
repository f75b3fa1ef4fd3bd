// Legacy present_or_* clauses and their short forms pcopy/pcopyin/pcopyout/pcreate.
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
  const int n = 900;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int)), *c = malloc(n * sizeof(int)), *d = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; c[i] = 0; d[i] = 0; }
  #pragma acc data present_or_copy(a[0:n]) present_or_copyin(b[0:n]) present_or_copyout(c[0:n]) present_or_create(d[0:n])
  {
    PRESENT(a, n * sizeof(int), 1);
    PRESENT(d, n * sizeof(int), 1);
    #pragma acc parallel loop pcopy(a[0:n]) pcopyin(b[0:n]) pcopyout(c[0:n]) pcreate(d[0:n])
    for (int i = 0; i < n; i++) { d[i] = a[i] + b[i]; c[i] = d[i] * 2; a[i] = -a[i]; }
  }
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) { CHECK(c[i] == 2 * i); CHECK(a[i] == -i); }
  #pragma acc parallel loop pcopyin(a[0:n]) pcopyout(b[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] * a[i];
  for (int i = 0; i < n; i++) CHECK(b[i] == i * i);
  #pragma acc enter data pcopyin(a[0:n]) pcreate(b[0:n])
  PRESENT(b, n * sizeof(int), 1);
  #pragma acc exit data delete(a[0:n], b[0:n])
  free(a); free(b); free(c); free(d);
  if (errors == 0) printf("present_or clauses ok\n");
  return errors != 0;
}
