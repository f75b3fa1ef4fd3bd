// copyin(readonly: ...) on data, compute and enter data constructs: data only read in the region.
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
  const int n = 3000;
  double *coef = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) coef[i] = 1.0 / (i + 1);
  #pragma acc data copyin(readonly: coef[0:n]) copyout(out[0:n])
  {
    PRESENT(coef, n * sizeof(double), 1);
    #pragma acc parallel loop present(coef[0:n], out[0:n])
    for (int i = 0; i < n; i++) out[i] = coef[i] * (i + 1);
  }
  for (int i = 0; i < n; i++) CHECK(out[i] > 0.999999999 && out[i] < 1.000000001);
  double total = 0;
  #pragma acc parallel loop copyin(readonly: coef[0:n]) reduction(+:total)
  for (int i = 0; i < n; i++) total += coef[i];
  double want = 0;
  for (int i = 0; i < n; i++) want += 1.0 / (i + 1);
  CHECK(total > want - 1e-9 && total < want + 1e-9);
  #pragma acc enter data copyin(readonly: coef[0:n])
  PRESENT(coef, n * sizeof(double), 1);
  #pragma acc exit data delete(coef[0:n])
  PRESENT(coef, n * sizeof(double), 0);
  free(coef); free(out);
  if (errors == 0) printf("copyin readonly ok\n");
  return errors != 0;
}
