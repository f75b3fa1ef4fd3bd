// declare copyin(a[0:n]) in a function on a pointer parameter: the section is present from the directive to the function's end.
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
   the program with the pointers themselves declared (ACCJIT_GCC_VALIDATION). */

static double dot_scaled(const double *a, const double *b, int n, double s) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyin(a, b)
#else
  #pragma acc declare copyin(a[0:n], b[0:n])
#endif
  PRESENT((void *)a, n * sizeof(double), 1);
  PRESENT((void *)b, n * sizeof(double), 1);
  CHECK(!TRACKED || acc_deviceptr((void *)a) != NULL);
  double r = 0.0;
  #pragma acc parallel loop reduction(+:r) present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) r += s * a[i] * b[i];
  return r;
}

int main(void) {
  srand(42);
  int n = 5000;
  double *a = malloc(n * sizeof(double));
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = rand() % 64; b[i] = (rand() % 32) - 16; }
  for (int k = 1; k <= 4; k++) {
    double got = dot_scaled(a, b, n, (double)k);
    double want = 0.0;
    for (int i = 0; i < n; i++) want += (double)k * a[i] * b[i];
    CHECK(got == want);
    PRESENT(a, n * sizeof(double), 0);
    PRESENT(b, n * sizeof(double), 0);
  }
  /* A caller's data region: the declare adds a reference and gives it back. */
  #pragma acc data copyin(a[0:n])
  {
    double got = dot_scaled(a, b, n / 2, 2.0);
    double want = 0.0;
    for (int i = 0; i < n / 2; i++) want += 2.0 * a[i] * b[i];
    CHECK(got == want);
    PRESENT(a, n * sizeof(double), 1);
    PRESENT(b, n / 2 * sizeof(double), 0);
  }
  PRESENT(a, n * sizeof(double), 0);
  free(a); free(b);
  if (errors == 0) printf("declare copyin parameter section ok\n");
  return errors != 0;
}
