// update with several sections of one array and clauses applied in order.
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
  const int n = 1000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = 0;
  int errors_seen = 0;
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = i;
    #pragma acc update self(a[0:100], a[500:100], a[n-10:10])
    for (int i = 0; i < 100; i++) errors_seen += a[i] != i || a[500 + i] != 500 + i;
    for (int i = n - 10; i < n; i++) errors_seen += a[i] != i;
    for (int i = 0; i < 100; i++) a[i] = -1;
    for (int i = 200; i < 300; i++) a[i] = -2;
    #pragma acc update device(a[0:100]) device(a[200:100])
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 10;
    #pragma acc update host(a[0:n])
  }
  CHECK(errors_seen == 0);
  for (int i = 0; i < n; i++) {
    int want = i < 100 ? -10 : (i >= 200 && i < 300) ? -20 : 10 * i;
    CHECK(a[i] == want);
  }
  double m[8][8];
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) m[i][j] = i * 8 + j;
  #pragma acc data copyin(m)
  {
    for (int j = 0; j < 8; j++) m[3][j] = 100 + j;
    #pragma acc update device(m[3:1][0:8])
    #pragma acc parallel loop present(m)
    for (int j = 0; j < 8; j++) m[3][j] *= 2;
    #pragma acc update self(m[3:1][0:8])
  }
  for (int j = 0; j < 8; j++) CHECK(m[3][j] == 2.0 * (100 + j));
  free(a);
  if (errors == 0) printf("update sections ok\n");
  return errors != 0;
}
