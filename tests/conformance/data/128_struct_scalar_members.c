// Scalar struct members in data clauses and update: copy(s.count), update device(s.scale).
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

typedef struct { int count; double scale; double *v; } acc_t;

int main(void) {
  acc_t s = {0, 1.5, malloc(100 * sizeof(double))};
  for (int i = 0; i < 100; i++) s.v[i] = i;
  #pragma acc parallel loop copy(s.count) copyin(s.scale) copy(s.v[0:100])
  for (int i = 0; i < 100; i++) {
    s.v[i] *= s.scale;
    #pragma acc atomic
    s.count++;
  }
  CHECK(s.count == 100);
  for (int i = 0; i < 100; i++) CHECK(s.v[i] == 1.5 * i);
  #pragma acc enter data copyin(s)
  s.scale = -2.0;
  #pragma acc update device(s.scale)
  double got = 0;
  #pragma acc serial present(s) copyout(got)
  got = s.scale * 10;
  CHECK(got == -20.0);
  #pragma acc exit data delete(s)
  free(s.v);
  if (errors == 0) printf("struct scalar members ok\n");
  return errors != 0;
}
