// A pipelined computation over blocks on alternating async queues with per-block update.
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

#define NB 8
#define BS 1000

int main(void) {
  const int n = NB * BS;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i % 100;
  #pragma acc enter data create(a[0:n])
  for (int b = 0; b < NB; b++) {
    int q = b % 2, lo = b * BS;
    CHECK(q == 0 || q == 1);
    #pragma acc update device(a[lo:BS]) async(q)
    #pragma acc parallel loop present(a[0:n]) async(q)
    for (int i = lo; i < lo + BS; i++) a[i] = a[i] * a[i] + b;
    #pragma acc update self(a[lo:BS]) async(q)
  }
  #pragma acc wait(0, 1)
  #pragma acc exit data delete(a[0:n])
  for (int i = 0; i < n; i++) {
    double v = i % 100;
    CHECK(a[i] == v * v + i / BS);
  }
  free(a);
  if (errors == 0) printf("async pipeline ok\n");
  return errors != 0;
}
