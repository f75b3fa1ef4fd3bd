// Deep copy of a T** matrix: pointer array entered, rows entered (attached), kernels, copy back, detach.
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
  const int n = 25, m = 33;
  int **a = malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) { a[i] = malloc(m * sizeof(int)); for (int j = 0; j < m; j++) a[i][j] = i * 100 + j; }
  int **orig_rows = malloc(n * sizeof(int *));
  for (int i = 0; i < n; i++) orig_rows[i] = a[i];
  #pragma acc enter data copyin(a[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc enter data copyin(a[i][0:m])
    PRESENT(a[i], m * sizeof(int), 1);
  }
  #pragma acc parallel loop gang present(a[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc loop vector
    for (int j = 0; j < m; j++) a[i][j] = -a[i][j];
  }
  for (int i = 0; i < n; i++) {
    #pragma acc exit data copyout(a[i][0:m])
  }
  #pragma acc exit data delete(a[0:n])
  PRESENT(a, n * sizeof(int *), 0);
  for (int i = 0; i < n; i++) {
    CHECK(a[i] == orig_rows[i]);              /* host row pointers are host addresses again */
    for (int j = 0; j < m; j++) CHECK(a[i][j] == -(i * 100 + j));
  }
  for (int i = 0; i < n; i++) free(a[i]);
  free(a); free(orig_rows);
  if (errors == 0) printf("deep copy of T** ok\n");
  return errors != 0;
}
