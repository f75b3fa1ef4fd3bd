// Two-dimensional subarrays of fixed and VLA arrays in data clauses and present checks.
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

static void work(int n, int m, double a[n][m]) {
  #pragma acc data copy(a[0:n][0:m])
  {
    PRESENT(a, sizeof(double) * n * m, 1);
    #pragma acc parallel loop collapse(2) present(a[0:n][0:m])
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) a[i][j] = a[i][j] * 2 + i;
  }
}

int main(void) {
  int n = 30, m = 20;
  double (*a)[m] = malloc(sizeof(double[n][m]));
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i][j] = j;
  work(n, m, a);
  for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) CHECK(a[i][j] == 2.0 * j + i);
  static int f[16][16];
  #pragma acc enter data copyin(f[4:8][0:16])
  PRESENT(&f[4][0], 8 * 16 * sizeof(int), 1);
  PRESENT(&f[0][0], 16 * 16 * sizeof(int), 0);        /* only rows 4..11 */
  #pragma acc parallel loop collapse(2) present(f[4:8][0:16])
  for (int i = 4; i < 12; i++)
    for (int j = 0; j < 16; j++) f[i][j] = i * j;
  #pragma acc exit data copyout(f[4:8][0:16])
  for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) CHECK(f[i][j] == ((i >= 4 && i < 12) ? i * j : 0));
  free(a);
  if (errors == 0) printf("2-D subarrays ok\n");
  return errors != 0;
}
