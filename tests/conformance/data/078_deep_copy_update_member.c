// After a deep copy, update device/self of a member array keeps the struct's device pointer valid.
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

typedef struct { int n; float *v; } vec;

int main(void) {
  vec a = {1000, malloc(1000 * sizeof(float))};
  for (int i = 0; i < a.n; i++) a.v[i] = i;
  #pragma acc enter data copyin(a, a.v[0:a.n])
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < a.n; i++) a.v[i] += 1.0f;               /* host change */
    #pragma acc update device(a.v[0:a.n])
    #pragma acc parallel loop present(a)
    for (int i = 0; i < a.n; i++) a.v[i] *= 2.0f;
    #pragma acc update self(a.v[0:a.n])
  }
  #pragma acc exit data delete(a.v[0:a.n])
  #pragma acc exit data delete(a)
  for (int i = 0; i < a.n; i++) CHECK(a.v[i] == (((i + 1.0f) * 2 + 1) * 2 + 1) * 2);
  free(a.v);
  if (errors == 0) printf("deep copy with member updates ok\n");
  return errors != 0;
}
