// A data construct with if(n > threshold): small problems stay on the host, large ones go to the device.
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

static double norm2(double *x, int n) {
  double s = 0;
  #pragma acc data copyin(x[0:n]) if(n > 1000)
  {
    if (n > 1000) PRESENT(x, n * sizeof(double), 1);
    else PRESENT(x, n * sizeof(double), 0);
    #pragma acc parallel loop reduction(+:s) if(n > 1000) present_or_copyin(x[0:n])
    for (int i = 0; i < n; i++) s += x[i] * x[i];
  }
  return s;
}

int main(void) {
  int sizes[] = {10, 999, 1001, 50000};
  for (int k = 0; k < 4; k++) {
    int n = sizes[k];
    double *x = malloc(n * sizeof(double));
    double want = 0;
    for (int i = 0; i < n; i++) { x[i] = (i % 10) * 0.5; want += x[i] * x[i]; }
    CHECK(norm2(x, n) == want);
    free(x);
  }
  if (errors == 0) printf("conditional data regions ok\n");
  return errors != 0;
}
