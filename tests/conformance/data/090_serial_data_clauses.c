// Data clauses on serial regions and serial loop; serial with present and deviceptr.
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

int main(void) {
  const int n = 400;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  double total = 0;
  #pragma acc serial copyin(a[0:n]) copy(total)
  {
    for (int i = 0; i < n; i++) total += a[i];
  }
  CHECK(total == n * (n - 1) / 2.0);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc serial loop present(a[0:n])
  for (int i = 1; i < n; i++) a[i] += a[i - 1];          /* serial: carried dependence is fine */
  #pragma acc exit data copyout(a[0:n])
  double run = 0;
  for (int i = 0; i < n; i++) { run += i; CHECK(a[i] == run); }
  double *d = acc_malloc(n * sizeof(double));
  #pragma acc serial deviceptr(d)
  {
    for (int i = 0; i < n; i++) d[i] = -i;
  }
  acc_memcpy_from_device(a, d, n * sizeof(double));
  for (int i = 0; i < n; i++) CHECK(a[i] == -i);
  acc_free(d);
  free(a);
  if (errors == 0) printf("serial data clauses ok\n");
  return errors != 0;
}
