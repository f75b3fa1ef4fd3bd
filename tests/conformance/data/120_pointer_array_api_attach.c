// Row pointers made present with acc_copyin and attached with acc_attach, one row at a time.
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
  const int n = 16, m = 50;
  double **rows = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) { rows[i] = malloc(m * sizeof(double)); for (int j = 0; j < m; j++) rows[i][j] = i + j; }
  acc_copyin(rows, n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    acc_copyin(rows[i], m * sizeof(double));
    acc_attach((void **)&rows[i]);
  }
  #pragma acc parallel loop collapse(2) present(rows[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) rows[i][j] *= 10;
  for (int i = 0; i < n; i++) {
    acc_detach((void **)&rows[i]);
    acc_copyout(rows[i], m * sizeof(double));
  }
  acc_delete(rows, n * sizeof(double *));
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) CHECK(rows[i][j] == 10.0 * (i + j));
  PRESENT(rows, n * sizeof(double *), 0);
  for (int i = 0; i < n; i++) free(rows[i]);
  free(rows);
  if (errors == 0) printf("pointer array with acc_attach ok\n");
  return errors != 0;
}
