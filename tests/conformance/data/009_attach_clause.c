// attach clause on compute and data constructs: a struct's pointer member attached to present data.
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

typedef struct { int n; int *data; } box;

int main(void) {
  box b;
  b.n = 1000;
  b.data = malloc(b.n * sizeof(int));
  for (int i = 0; i < b.n; i++) b.data[i] = i;
  #pragma acc enter data copyin(b)
  #pragma acc enter data copyin(b.data[0:b.n])
  #pragma acc parallel loop default(present) attach(b.data)
  for (int i = 0; i < b.n; i++) b.data[i] *= 2;
  #pragma acc data attach(b.data)
  {
    #pragma acc parallel loop present(b)
    for (int i = 0; i < b.n; i++) b.data[i] += 1;
  }
  #pragma acc enter data attach(b.data)
  #pragma acc exit data detach(b.data)
  #pragma acc exit data copyout(b.data[0:b.n])
  #pragma acc exit data delete(b)
  PRESENT(b.data, b.n * sizeof(int), 0);
  PRESENT(&b, sizeof b, 0);
  for (int i = 0; i < b.n; i++) CHECK(b.data[i] == 2 * i + 1);
  free(b.data);
  if (errors == 0) printf("attach clause ok\n");
  return errors != 0;
}
