// Deep copy of a T** (2 levels): data/enter/exit/update on a[0:n][0:m] act on every row and attach it.
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

/* gcc 12 rejects non-contiguous (deep) sections, so under ACCJIT_GCC_VALIDATION the same
   data movement is written one row at a time; accjit runs the deep clauses. */
#ifdef ACCJIT_GCC_VALIDATION
static void ENTER_ROWS(double **p, int lo, int len, int c0, int c1) {
  for (int r = lo; r < lo + len; r++) {
    #pragma acc enter data copyin(p[r][c0:c1])
  }
}
static void EXIT_ROWS(double **p, int lo, int len, int c0, int c1) {
  for (int r = lo; r < lo + len; r++) {
    #pragma acc exit data copyout(p[r][c0:c1])
  }
}
#endif

int main(void) {
  const int n = 6, m = 50;
  double **a = malloc(n * sizeof(double *));
  double **b = malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    a[i] = malloc(m * sizeof(double));
    b[i] = malloc(m * sizeof(double));
    for (int j = 0; j < m; j++) { a[i][j] = i * 100 + j; b[i][j] = -1; }
  }
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc data copyin(a[0:n][0:m]) copyout(b[0:n][0:m])
  {
    PRESENT(a, n * sizeof(double *), 1);
    for (int i = 0; i < n; i++) {
      PRESENT(a[i], m * sizeof(double), 1);
      PRESENT(b[i], m * sizeof(double), 1);
    }
    #pragma acc parallel loop present(a[0:n][0:m], b[0:n][0:m])
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) b[i][j] = 2 * a[i][j];
  }
#else
  #pragma acc enter data copyin(a[0:n], b[0:n])
  ENTER_ROWS(a, 0, n, 0, m);
  ENTER_ROWS(b, 0, n, 0, m);
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[i][j] = 2 * a[i][j];
  EXIT_ROWS(b, 0, n, 0, m);
  EXIT_ROWS(a, 0, n, 0, m);
  #pragma acc exit data delete(a[0:n], b[0:n])
#endif
  PRESENT(a, n * sizeof(double *), 0);
  for (int i = 0; i < n; i++) {
    PRESENT(a[i], m * sizeof(double), 0);
    PRESENT(b[i], m * sizeof(double), 0);
    for (int j = 0; j < m; j++) CHECK(b[i][j] == 2 * (i * 100 + j));
  }
  /* a section of some rows: a[1:4][10:20] */
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc enter data copyin(a[1:4][10:20])
#else
  #pragma acc enter data copyin(a[1:4])
  ENTER_ROWS(a, 1, 4, 10, 20);
#endif
  PRESENT(a + 1, 4 * sizeof(double *), 1);
  PRESENT(a[1] + 10, 20 * sizeof(double), 1);
  PRESENT(a[4] + 29, sizeof(double), 1);
  PRESENT(a[4] + 30, sizeof(double), 0);
  PRESENT(a[0], sizeof(double), 0);
  PRESENT(a[5], sizeof(double), 0);
  #pragma acc parallel loop present(a[1:4])
  for (int i = 1; i < 5; i++)
    for (int j = 10; j < 30; j++) a[i][j] += 0.5;
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc exit data copyout(a[1:4][10:20])
#else
  EXIT_ROWS(a, 1, 4, 10, 20);
  #pragma acc exit data delete(a[1:4])
#endif
  PRESENT(a[1] + 10, 20 * sizeof(double), 0);
  PRESENT(a + 1, 4 * sizeof(double *), 0);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      CHECK(a[i][j] == i * 100 + j + ((i >= 1 && i < 5 && j >= 10 && j < 30) ? 0.5 : 0.0));
#ifndef ACCJIT_GCC_VALIDATION
  /* update self of every row */
  #pragma acc enter data copyin(a[0:n][0:m])
  #pragma acc parallel loop present(a[0:n][0:m])
  for (int i = 0; i < n; i++) a[i][0] = -i;
  #pragma acc update self(a[0:n][0:m])
  for (int i = 0; i < n; i++) CHECK(a[i][0] == -i);
  #pragma acc exit data delete(a[0:n][0:m])
  for (int i = 0; i < n; i++) PRESENT(a[i], m * sizeof(double), 0);
#endif
  for (int i = 0; i < n; i++) { free(a[i]); free(b[i]); }
  free(a); free(b);
  if (errors == 0) printf("deep copy of T** ok\n");
  return errors != 0;
}
