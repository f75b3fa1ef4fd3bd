// Free memory and declare lifetimes: a function-scope declare's sections hold memory until the function returns; globals' declares hold it from start to end.
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
/* GCC 12 rejects array sections in 'declare' and reports 0 for memory properties; gcc_check.py
   validates the program with whole variables declared and skips the free-memory checks. */

#define G 1000
float gtab[G];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare create(gtab)
#else
#pragma acc declare create(gtab[0:G/2])
#endif

static size_t free_mem(void) {
  acc_device_t t = acc_get_device_type();
  return acc_get_property(acc_get_device_num(t), t, acc_property_free_memory);
}

static size_t inside = 0;

static double kernel(double *a, int n, int early) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare create(a)
#else
  #pragma acc declare create(a[0:n])
#endif
  inside = free_mem();
  #pragma acc parallel loop present(a[0:n], gtab[0:G/2])
  for (int i = 0; i < n; i++) a[i] = i * 0.5 + gtab[i % (G / 2)];
  if (early) return -1.0;
  double s = 0.0;
  #pragma acc parallel loop reduction(+:s) present(a[0:n])
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  size_t total = acc_get_property(acc_get_device_num(t), t, acc_property_memory);
  size_t f0 = free_mem();
  /* The global section has been present since the program started. */
  CHECK(!TRACKED || total - f0 >= G / 2 * sizeof(float));
  PRESENT(gtab, G / 2 * sizeof(float), 1);
  srand(42);
  for (int i = 0; i < G; i++) gtab[i] = (float)(rand() % 8);
  #pragma acc update device(gtab[0:G/2])
  for (int early = 0; early <= 1; early++) {
    int n = 4096 + rand() % 1000;
    double *a = malloc(n * sizeof(double));
    double got = kernel(a, n, early);
    CHECK(!TRACKED || inside == f0 - n * sizeof(double));
    CHECK(!TRACKED || free_mem() == f0);
    double want = 0.0;
    for (int i = 0; i < n; i++) want += i * 0.5 + gtab[i % (G / 2)];
    CHECK(early ? got == -1.0 : got == want);
    free(a);
  }
  if (errors == 0) printf("free memory and declare lifetimes ok\n");
  return errors != 0;
}
