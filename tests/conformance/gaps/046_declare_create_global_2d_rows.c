// declare create(m[r0:nr][0:C]) at file scope: a block of rows of a 2-D global is present for the program; kernels fill it, update self reads it.
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
/* GCC 12 rejects array sections in 'declare' (the OpenACC 2.0 rule); gcc_check.py validates
   the program with the whole array declared (ACCJIT_GCC_VALIDATION). */

#define R 32
#define C 48
#define R0 8
#define NR 16
double m[R][C];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare create(m)
#else
#pragma acc declare create(m[R0:NR][0:C])
#endif

static void fill(double scale) {
  #pragma acc parallel loop collapse(2) present(m[R0:NR][0:C])
  for (int i = R0; i < R0 + NR; i++)
    for (int j = 0; j < C; j++) m[i][j] = scale * (i * C + j) + (double)((i * 31 + j * 17) % 11);
}

int main(void) {
  PRESENT(&m[R0][0], NR * C * sizeof(double), 1);
  PRESENT(&m[R0 - 1][0], C * sizeof(double), 0);
  PRESENT(&m[R0 + NR][0], C * sizeof(double), 0);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) m[i][j] = -1.0;
  for (int pass = 1; pass <= 3; pass++) {
    double scale = 0.5 * pass;
    fill(scale);
    #pragma acc update self(m[R0:NR][0:C])
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++) {
        double want = (i >= R0 && i < R0 + NR) ? scale * (i * C + j) + (double)((i * 31 + j * 17) % 11) : -1.0;
        CHECK(m[i][j] == want);
      }
  }
  double rowsum[NR];
  #pragma acc parallel loop present(m[R0:NR][0:C]) copyout(rowsum)
  for (int i = 0; i < NR; i++) {
    double s = 0.0;
    for (int j = 0; j < C; j++) s += m[R0 + i][j];
    rowsum[i] = s;
  }
  for (int i = 0; i < NR; i++) {
    double s = 0.0;
    for (int j = 0; j < C; j++) s += m[R0 + i][j];
    CHECK(rowsum[i] == s);
  }
  if (errors == 0) printf("declare create 2-D rows ok\n");
  return errors != 0;
}
