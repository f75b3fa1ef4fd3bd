// Data clauses on compute constructs take and drop structured references around the region.
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
  const int n = 400;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  int inside = -1;
  #pragma acc parallel loop copy(a[0:n]) copyout(inside)
  for (int i = 0; i < n; i++) { a[i] += 1; if (i == 0) inside = 1; }
  PRESENT(a, n * sizeof(double), 0);                /* copy on the construct ends with it */
  CHECK(inside == 1);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop copy(a[0:n])            /* present: only counts move */
  for (int i = 0; i < n; i++) a[i] *= 2;
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc kernels create(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc exit data copyout(a[0:n])
  PRESENT(a, n * sizeof(double), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 2.0 * (i + 1) + 1);
  if (errors == 0) printf("compute-construct reference counts ok\n");
  free(a);
  return errors != 0;
}
