// declare device_resident on a global used only by nohost-free device code through a routine.
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

#define N 256
float scratch[N];
#pragma acc declare device_resident(scratch)

int main(void) {
  float out[N];
  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < N; i++) {
    scratch[i] = i * 1.5f;
    out[i] = scratch[i] + 1.0f;
  }
  for (int i = 0; i < N; i++) CHECK(out[i] == i * 1.5f + 1.0f);
  float sum = 0;
  #pragma acc parallel loop reduction(+:sum)
  for (int i = 0; i < N; i++) sum += scratch[i];
  CHECK(sum == 1.5f * (N * (N - 1) / 2));
  if (errors == 0) printf("declare device_resident ok\n");
  return errors != 0;
}
