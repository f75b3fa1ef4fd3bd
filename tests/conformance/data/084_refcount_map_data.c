// Data mapped with acc_map_data takes extra dynamic references from enter data and keeps the mapping.
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
  const int n = 200;
  double *h = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) h[i] = i;
  double *d = acc_malloc(n * sizeof(double));
  acc_map_data(h, d, n * sizeof(double));
  #pragma acc enter data copyin(h[0:n])
  #pragma acc enter data create(h[0:n])
  #pragma acc exit data delete(h[0:n])
  #pragma acc exit data delete(h[0:n])
  PRESENT(h, n * sizeof(double), 1);
  if (TRACKED) CHECK(acc_deviceptr(h) == d);
  #pragma acc data copy(h[0:n])
  {
    PRESENT(h, n * sizeof(double), 1);
  }
  PRESENT(h, n * sizeof(double), 1);
  acc_unmap_data(h);
  PRESENT(h, n * sizeof(double), 0);
  acc_free(d);
  free(h);
  if (errors == 0) printf("acc_map_data reference counts ok\n");
  return errors != 0;
}
