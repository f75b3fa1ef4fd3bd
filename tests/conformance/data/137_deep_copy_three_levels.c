// Deep copy of a T*** (3 levels) and of an array of row pointers (float *rows[N]); reverse-order exit.
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

/* gcc 12 rejects non-contiguous (deep) sections: under ACCJIT_GCC_VALIDATION the deep
   clauses are left out (the computations run on gcc's shared-memory host fallback, whose
   presence checks are skipped anyway); accjit runs them. */
#define NR 4
int main(void) {
  const int n = 3, m = 4, k = 5;
  int ***c = malloc(n * sizeof(int **));
  for (int i = 0; i < n; i++) {
    c[i] = malloc(m * sizeof(int *));
    for (int j = 0; j < m; j++) {
      c[i][j] = malloc(k * sizeof(int));
      for (int l = 0; l < k; l++) c[i][j][l] = i * 100 + j * 10 + l;
    }
  }
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc data copy(c[0:n][0:m][0:k])
#endif
  {
    PRESENT(c, n * sizeof(int **), 1);
    for (int i = 0; i < n; i++) {
      PRESENT(c[i], m * sizeof(int *), 1);
      for (int j = 0; j < m; j++) PRESENT(c[i][j], k * sizeof(int), 1);
    }
#ifndef ACCJIT_GCC_VALIDATION
    #pragma acc parallel loop collapse(2) present(c[0:n][0:m][0:k])
#else
    #pragma acc parallel loop collapse(2)
#endif
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        for (int l = 0; l < k; l++) c[i][j][l] *= 2;
  }
  for (int i = 0; i < n; i++) {
    PRESENT(c[i], m * sizeof(int *), 0);
    for (int j = 0; j < m; j++) {
      PRESENT(c[i][j], k * sizeof(int), 0);
      for (int l = 0; l < k; l++) CHECK(c[i][j][l] == 2 * (i * 100 + j * 10 + l));
    }
  }
  PRESENT(c, n * sizeof(int **), 0);

  float *rows[NR];
  for (int i = 0; i < NR; i++) {
    rows[i] = malloc(8 * sizeof(float));
    for (int j = 0; j < 8; j++) rows[i][j] = (float)(i + j);
  }
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc enter data copyin(rows[0:NR][0:8])
#endif
  PRESENT(rows, sizeof rows, 1);
  for (int i = 0; i < NR; i++) PRESENT(rows[i], 8 * sizeof(float), 1);
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc parallel loop present(rows[0:NR][0:8])
#else
  #pragma acc parallel loop
#endif
  for (int i = 0; i < NR; i++)
    for (int j = 0; j < 8; j++) rows[i][j] += 1.0f;
#ifndef ACCJIT_GCC_VALIDATION
  #pragma acc exit data copyout(rows[0:NR][0:8])
#endif
  for (int i = 0; i < NR; i++) {
    PRESENT(rows[i], 8 * sizeof(float), 0);
    for (int j = 0; j < 8; j++) CHECK(rows[i][j] == (float)(i + j + 1));
    free(rows[i]);
  }
  PRESENT(rows, sizeof rows, 0);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) free(c[i][j]);
    free(c[i]);
  }
  free(c);
  if (errors == 0) printf("deep copy of T*** and T*[N] ok\n");
  return errors != 0;
}
