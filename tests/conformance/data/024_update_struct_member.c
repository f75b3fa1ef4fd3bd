// update of struct members and member subarrays; update of a whole struct.
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

typedef struct { int n; double scale; double *v; } field;

int main(void) {
  field f = {500, 2.0, malloc(500 * sizeof(double))};
  for (int i = 0; i < f.n; i++) f.v[i] = i;
  #pragma acc enter data copyin(f)
  #pragma acc enter data copyin(f.v[0:f.n])
  f.scale = 3.0;
  #pragma acc update device(f.scale)
  #pragma acc parallel loop present(f)
  for (int i = 0; i < f.n; i++) f.v[i] *= f.scale;
  #pragma acc update self(f.v[0:f.n])
  for (int i = 0; i < f.n; i++) CHECK(f.v[i] == 3.0 * i);
  for (int i = 0; i < 10; i++) f.v[i] = -1;
  #pragma acc update device(f.v[0:10])
  #pragma acc serial present(f)
  {
    for (int i = 0; i < 10; i++) f.v[i] -= 1;
    f.n = 10;
  }
  #pragma acc update self(f.n)
  CHECK(f.n == 10);
  f.n = 500;
  #pragma acc update device(f.n)
  #pragma acc exit data copyout(f.v[0:f.n])
  #pragma acc exit data delete(f)
  for (int i = 0; i < 500; i++) CHECK(f.v[i] == (i < 10 ? -2.0 : 3.0 * i));
  free(f.v);
  if (errors == 0) printf("update struct members ok\n");
  return errors != 0;
}
