// Eight async queues, each with its own array, run to completion with one wait directive.
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

#define Q 8

int main(void) {
  const int n = 1000;
  float *bufs[Q];
  for (int q = 0; q < Q; q++) { bufs[q] = malloc(n * sizeof(float)); for (int i = 0; i < n; i++) bufs[q][i] = q; }
  for (int q = 0; q < Q; q++) {
    float *b = bufs[q];
    #pragma acc enter data copyin(b[0:n]) async(q + 10)
    #pragma acc parallel loop present(b[0:n]) async(q + 10)
    for (int i = 0; i < n; i++) b[i] = b[i] * 10 + i;
    #pragma acc exit data copyout(b[0:n]) async(q + 10)
  }
  #pragma acc wait
  for (int q = 0; q < Q; q++) {
    CHECK(acc_async_test(q + 10) != 0);
    PRESENT(bufs[q], n * sizeof(float), 0);
    for (int i = 0; i < n; i++) CHECK(bufs[q][i] == q * 10.0f + i);
    free(bufs[q]);
  }
  if (errors == 0) printf("many queues ok\n");
  return errors != 0;
}
