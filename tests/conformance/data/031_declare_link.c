// declare link on a large global: device memory exists only while a data clause names it.
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

#define N 4096
double big[N];
#pragma acc declare link(big)

int main(void) {
  for (int i = 0; i < N; i++) big[i] = i * 0.5;
  double out[128];
  #pragma acc data copyin(big[0:N])
  {
    #pragma acc parallel loop copyout(out)
    for (int i = 0; i < 128; i++) out[i] = big[i * 32] + 1.0;
  }
  for (int i = 0; i < 128; i++) CHECK(out[i] == i * 16.0 + 1.0);
  #pragma acc data copy(big[0:N])
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) big[i] = -big[i];
  }
  for (int i = 0; i < N; i++) CHECK(big[i] == -i * 0.5);
  #pragma acc enter data copyin(big[0:N])
  PRESENT(big, sizeof big, 1);
  #pragma acc exit data delete(big[0:N])
  if (errors == 0) printf("declare link ok\n");
  return errors != 0;
}
