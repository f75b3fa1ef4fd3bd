// declare copyin/copy on sections that start past element 0 (a[lo:len], rows of a 2-D VLA): only those bytes are present, at matching device addresses.
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
   the program with the pointers themselves declared; its libgomp aborts ("GOACC_declare:
   Assertion `0' failed") on 'declare copy' of a pointer parameter, so gcc gets 'copyin' there,
   the same on its shared-memory host fallback (ACCJIT_GCC_VALIDATION). */

static long band_sum(int rows, int cols, int (*m)[cols], int r0, int nr, const int *w, int lo, int len) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyin(m, w)
#else
  #pragma acc declare copy(m[r0:nr][0:cols]) copyin(w[lo:len])
#endif
  PRESENT(&m[r0][0], nr * cols * sizeof(int), 1);
  PRESENT((void *)&w[lo], len * sizeof(int), 1);
  if (r0 > 0) PRESENT(&m[r0 - 1][0], sizeof(int), 0);
  if (lo > 0) PRESENT((void *)&w[lo - 1], sizeof(int), 0);
  long s = 0;
  #pragma acc parallel loop reduction(+:s) present(m[r0:nr][0:cols], w[lo:len])
  for (int i = r0; i < r0 + nr; i++)
    for (int j = 0; j < cols; j++) {
      m[i][j] *= w[lo + (i + j) % len];
      s += m[i][j];
    }
  (void)rows;
  return s;
}

int main(void) {
  srand(42);
  int rows = 40, cols = 30, nw = 64;
  int (*m)[cols] = malloc(rows * sizeof *m);
  int *w = malloc(nw * sizeof(int));
  int (*ref)[cols] = malloc(rows * sizeof *ref);
  for (int i = 0; i < nw; i++) w[i] = 1 + rand() % 5;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) m[i][j] = ref[i][j] = rand() % 20;
  int r0 = 7, nr = 21, lo = 10, len = 33;
  long got = band_sum(rows, cols, m, r0, nr, w, lo, len);
  long want = 0;
  for (int i = r0; i < r0 + nr; i++)
    for (int j = 0; j < cols; j++) { ref[i][j] *= w[lo + (i + j) % len]; want += ref[i][j]; }
  CHECK(got == want);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) CHECK(m[i][j] == ref[i][j]);
  PRESENT(&m[r0][0], nr * cols * sizeof(int), 0);
  PRESENT(&w[lo], len * sizeof(int), 0);
  free(m); free(w); free(ref);
  if (errors == 0) printf("declare sections with offsets ok\n");
  return errors != 0;
}
