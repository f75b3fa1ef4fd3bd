// declare deviceptr at function scope on pointer parameters holding acc_malloc memory.
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

static void fill_dev(int n, float *d) {
  #pragma acc declare deviceptr(d)
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) d[i] = i * 2.0f;
}
static void add_dev(int n, float *d, const float *e) {
  #pragma acc declare deviceptr(d, e)
  #pragma acc parallel loop
  for (int i = 0; i < n; i++) d[i] += e[i];
}

int main(void) {
  const int n = 700;
  float *h = malloc(n * sizeof(float));
  float *d = acc_malloc(n * sizeof(float)), *e = acc_malloc(n * sizeof(float));
  fill_dev(n, d);
  fill_dev(n, e);
  add_dev(n, d, e);
  acc_memcpy_from_device(h, d, n * sizeof(float));
  for (int i = 0; i < n; i++) CHECK(h[i] == i * 4.0f);
  acc_free(d); acc_free(e);
  free(h);
  if (errors == 0) printf("declare deviceptr ok\n");
  return errors != 0;
}
