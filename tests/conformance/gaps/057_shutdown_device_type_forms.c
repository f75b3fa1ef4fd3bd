// The shutdown directive with device_type forms: only the named types' present data goes; lists, *, device_num and if; constructs then run again.
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
/* gcc 12 ignores 'shutdown'; gcc_check.py turns each directive into acc_shutdown(_device) with the
   first type of the list that gcc's host fallback serves. Presence checks are accjit-only. */

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  const acc_device_t start = t;
  srand(42);
  int n = 300;
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = (float)(rand() % 100);
  #pragma acc enter data copyin(a[0:n])
  PRESENT(a, n * sizeof(float), 1);
  #pragma acc shutdown device_type(host) if(n < 0)
  PRESENT(a, n * sizeof(float), 1);
  /* Shutting down another type than the current one leaves the current device's data alone. */
  if (start != acc_device_host) {
    #pragma acc shutdown device_type(host)
    PRESENT(a, n * sizeof(float), 1);
  }
  #pragma acc shutdown device_type(nvidia, default) device_num(0)
  PRESENT(a, n * sizeof(float), 0);
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1.0f;
  #pragma acc enter data copyin(a[0:n])
  PRESENT(a, n * sizeof(float), 1);
  #pragma acc shutdown device_type(*)
  PRESENT(a, n * sizeof(float), 0);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc shutdown device_type(xeon_phi_9000, radeon, multicore, host, nvidia)
  PRESENT(a, n * sizeof(float), 0);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc shutdown
  PRESENT(a, n * sizeof(float), 0);
  CHECK(acc_get_device_type() == start);
  float s = 0.0f;
  #pragma acc parallel loop reduction(+:s) copyin(a[0:n])
  for (int i = 0; i < n; i++) s += a[i];
  float w = 0.0f;
  for (int i = 0; i < n; i++) w += a[i];
  CHECK(s == w);
  srand(42);
  for (int i = 0; i < n; i++) CHECK(a[i] == (float)(rand() % 100) + 1.0f);
  free(a);
  if (errors == 0) printf("shutdown device_type forms ok\n");
  return errors != 0;
}
