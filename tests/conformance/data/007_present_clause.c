// present clause on data made present by data, enter data and acc_copyin; also on sub-sections.
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

static void scale(double *v, int lo, int len, double f) {
  #pragma acc parallel loop present(v[lo:len])
  for (int i = lo; i < lo + len; i++) v[i] *= f;
}

int main(void) {
  const int n = 1200;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = 1.0;
  #pragma acc data copy(a[0:n])
  {
    scale(a, 0, n, 2.0);
    scale(a, 100, 50, 3.0);                  /* a subset of the present section */
  }
  #pragma acc enter data copyin(a[0:n])
  scale(a, n - 1, 1, 5.0);
  #pragma acc exit data copyout(a[0:n])
  acc_copyin(a, n * sizeof(double));
  #pragma acc data present(a[0:n])
  {
    PRESENT(a, n * sizeof(double), 1);
    scale(a, 0, n, 0.5);
  }
  acc_copyout(a, n * sizeof(double));
  for (int i = 0; i < n; i++) {
    double want = (i >= 100 && i < 150) ? 3.0 : 1.0;
    if (i == n - 1) want = 5.0;
    CHECK(a[i] == want);
  }
  free(a);
  if (errors == 0) printf("present clause ok\n");
  return errors != 0;
}
