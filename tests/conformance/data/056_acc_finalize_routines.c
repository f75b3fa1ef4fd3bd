// acc_copyout_finalize and acc_delete_finalize drop all dynamic references at once.
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
  const int n = 300;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  for (int k = 0; k < 4; k++) acc_copyin(a, n * sizeof(float));
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 0.5f;
  acc_copyout_finalize(a, n * sizeof(float));
  PRESENT(a, n * sizeof(float), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 0.5f);
  acc_create(b, n * sizeof(float));
  acc_create(b, n * sizeof(float));
  acc_delete_finalize(b, n * sizeof(float));
  PRESENT(b, n * sizeof(float), 0);
  #pragma acc data copy(b[0:n])
  {
    acc_copyin(b, n * sizeof(float));
    acc_delete_finalize(b, n * sizeof(float));   /* dynamic 0, structured still 1 */
    PRESENT(b, n * sizeof(float), 1);
    #pragma acc parallel loop present(b[0:n])
    for (int i = 0; i < n; i++) b[i] = 9;
  }
  PRESENT(b, n * sizeof(float), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == 9);
  free(a); free(b);
  if (errors == 0) printf("finalize routines ok\n");
  return errors != 0;
}
