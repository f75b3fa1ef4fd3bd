// declare device_resident(buf[0:n]) at file scope: device-only scratch for the program; kernels use it between launches.
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
   the program with the whole array declared (ACCJIT_GCC_VALIDATION). On accjit's shared-memory
   devices device_resident data lives in host memory; the program touches it only in kernels. */

#define N 4096
#define USED 3000
float scratch[N];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare device_resident(scratch)
#else
#pragma acc declare device_resident(scratch[0:USED])
#endif

int main(void) {
  PRESENT(scratch, USED * sizeof(float), 1);
  PRESENT(&scratch[USED], sizeof(float), 0);
  CHECK(!TRACKED || acc_deviceptr(scratch) != NULL);
  srand(42);
  int n = USED;
  float *in = malloc(n * sizeof(float));
  float *out = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) in[i] = (float)(rand() % 1000) / 100.0f;
  #pragma acc data copyin(in[0:n]) copyout(out[0:n])
  {
    #pragma acc parallel loop present(scratch[0:USED])
    for (int i = 0; i < n; i++) scratch[i] = in[i] * in[i];
    #pragma acc parallel loop present(scratch[0:USED])
    for (int i = 0; i < n; i++) out[i] = scratch[i] + scratch[n - 1 - i];
  }
  for (int i = 0; i < n; i++) {
    float want = in[i] * in[i] + in[n - 1 - i] * in[n - 1 - i];
    CHECK(out[i] == want);
  }
  long hits = 0;
  #pragma acc parallel loop reduction(+:hits) present(scratch[0:USED])
  for (int i = 0; i < n; i++) hits += scratch[i] > 25.0f;
  long want_hits = 0;
  for (int i = 0; i < n; i++) want_hits += in[i] * in[i] > 25.0f;
  CHECK(hits == want_hits);
  PRESENT(scratch, USED * sizeof(float), 1);
  free(in); free(out);
  if (errors == 0) printf("declare device_resident section ok\n");
  return errors != 0;
}
