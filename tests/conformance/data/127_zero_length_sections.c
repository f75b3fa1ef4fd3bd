// Zero-length sections and zero-byte API calls do nothing and are not errors.
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
  int n = 0;
  double *a = malloc(16 * sizeof(double));
  for (int i = 0; i < 16; i++) a[i] = i;
  #pragma acc data copy(a[0:n])
  {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = -1;
  }
  #pragma acc enter data copyin(a[0:n])
  #pragma acc update self(a[0:n])
  #pragma acc exit data delete(a[0:n])
  double *d = acc_malloc(16 * sizeof(double));
  acc_memcpy_to_device(d, a, 0);
  acc_memcpy_from_device(a, d, 0);
  acc_free(d);
  for (int i = 0; i < 16; i++) CHECK(a[i] == i);
  #pragma acc parallel loop copy(a[0:16])
  for (int i = 0; i < 16; i++) a[i] += 1;
  for (int i = 0; i < 16; i++) CHECK(a[i] == i + 1);
  free(a);
  if (errors == 0) printf("zero-length sections ok\n");
  return errors != 0;
}
