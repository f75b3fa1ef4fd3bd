// acc_copyin / acc_create return device addresses, count as dynamic references; acc_delete drops them.
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
  const int n = 800;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  double *da = acc_copyin(a, n * sizeof(double));
  double *db = acc_create(b, n * sizeof(double));
  CHECK(da != NULL && db != NULL);
  CHECK(da == acc_deviceptr(a) && db == acc_deviceptr(b));
  PRESENT(a, n * sizeof(double), 1);
  PRESENT(b, n * sizeof(double), 1);
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] * a[i];
  double *again = acc_copyin(a, n * sizeof(double));       /* present: same address, count 2 */
  CHECK(again == da);
  acc_delete(a, n * sizeof(double));
  PRESENT(a, n * sizeof(double), 1);
  acc_delete(a, n * sizeof(double));
  PRESENT(a, n * sizeof(double), 0);
  #pragma acc update self(b[0:n])
  acc_delete(b, n * sizeof(double));
  PRESENT(b, n * sizeof(double), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == (double)i * i);
  acc_copyin(a + 100, 10 * sizeof(double));                 /* a subrange */
  PRESENT(a + 100, 10 * sizeof(double), 1);
  PRESENT(a, n * sizeof(double), 0);
  acc_delete(a + 100, 10 * sizeof(double));
  free(a); free(b);
  if (errors == 0) printf("acc_copyin/acc_create/acc_delete ok\n");
  return errors != 0;
}
