// exit data finalize sets the dynamic reference count to zero after several enter data.
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
  const int n = 500;
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc enter data copyin(a[0:n])
  #pragma acc enter data create(a[0:n])
  PRESENT(a, n * sizeof(float), 1);
  #pragma acc exit data delete(a[0:n])
  PRESENT(a, n * sizeof(float), 1);            /* count 3 -> 2 */
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 0.5f;
  #pragma acc exit data copyout(a[0:n]) finalize
  PRESENT(a, n * sizeof(float), 0);            /* 2 -> 0 at once */
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 0.5f);
  acc_copyin(a, n * sizeof(float));
  acc_copyin(a, n * sizeof(float));
  #pragma acc exit data delete(a[0:n]) finalize
  PRESENT(a, n * sizeof(float), 0);
  free(a);
  if (errors == 0) printf("finalize ok\n");
  return errors != 0;
}
