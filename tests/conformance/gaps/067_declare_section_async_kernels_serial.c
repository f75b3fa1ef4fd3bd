// Declared global sections in kernels and serial constructs, with update async/wait on the sections and acc_deviceptr/acc_is_present on their parts.
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
   the program with the whole arrays declared (ACCJIT_GCC_VALIDATION). */

#define N 2048
#define HALF (N / 2)
double xs[N], ys[N];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare create(xs, ys)
#else
#pragma acc declare create(xs[0:HALF]) copyin(ys[HALF:HALF])
#endif

int main(void) {
  PRESENT(xs, HALF * sizeof(double), 1);
  PRESENT(&xs[HALF], sizeof(double), 0);
  PRESENT(&ys[HALF], HALF * sizeof(double), 1);
  PRESENT(ys, sizeof(double), 0);
  /* A part of a declared section is present too, at the matching device address. */
  PRESENT(&xs[100], 50 * sizeof(double), 1);
  CHECK(!TRACKED || (char *)acc_deviceptr(&xs[100]) == (char *)acc_deviceptr(xs) + 100 * sizeof(double));
  srand(42);
  for (int i = 0; i < N; i++) { xs[i] = rand() % 1000; ys[i] = (rand() % 1000) * 0.001; }
  #pragma acc update device(xs[0:HALF]) async(1)
  #pragma acc update device(ys[HALF:HALF]) async(2)
  #pragma acc wait(1, 2)
  #pragma acc kernels present(xs[0:HALF], ys[HALF:HALF])
  {
    for (int i = 0; i < HALF; i++) xs[i] = xs[i] * ys[HALF + i];
  }
  #pragma acc update self(xs[0:HALF]) async(3)
  #pragma acc wait(3)
  double mx = 0.0;
  #pragma acc serial present(xs[0:HALF]) copy(mx)
  {
    for (int i = 0; i < HALF; i++) if (xs[i] > mx) mx = xs[i];
  }
  double want_mx = 0.0;
  srand(42);
  for (int i = 0; i < N; i++) {
    double x = rand() % 1000, y = (rand() % 1000) * 0.001;
    (void)y;
    if (i < HALF) { CHECK(xs[i] == x * ys[HALF + i]); if (xs[i] > want_mx) want_mx = xs[i]; }
    else CHECK(xs[i] == x);
  }
  CHECK(mx == want_mx);
  if (errors == 0) printf("declared sections in kernels and serial ok\n");
  return errors != 0;
}
