// delete on exit data: removes data without copying back; also after partial use.
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
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 7; }
  #pragma acc enter data copyin(a[0:n]) create(b[0:n])
  PRESENT(a, n * sizeof(int), 1);
  PRESENT(b, n * sizeof(int), 1);
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] + 1;
  #pragma acc update self(b[0:n])
  #pragma acc exit data delete(a[0:n], b[0:n])
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == i + 1);
  double s = 0;
  #pragma acc enter data copyin(s)
  PRESENT(&s, sizeof s, 1);
  #pragma acc exit data delete(s)
  PRESENT(&s, sizeof s, 0);
  free(a); free(b);
  if (errors == 0) printf("delete ok\n");
  return errors != 0;
}
