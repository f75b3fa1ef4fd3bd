// A struct with fixed-size array members entered whole; member updates and member sections.
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

typedef struct { int id; float coef[16]; int hist[10]; } model;

int main(void) {
  model m = {3, {0}, {0}};
  for (int k = 0; k < 16; k++) m.coef[k] = k * 0.5f;
  #pragma acc enter data copyin(m)
  PRESENT(&m, sizeof m, 1);
  PRESENT(m.coef, sizeof m.coef, 1);
  #pragma acc parallel loop present(m)
  for (int i = 0; i < 1000; i++) {
    #pragma acc atomic
    m.hist[i % 10] += m.id;
  }
  m.coef[5] = 100.0f;
  #pragma acc update device(m.coef[5:1])
  float got = 0;
  #pragma acc serial present(m) copyout(got)
  got = m.coef[5] + m.coef[6];
  CHECK(got == 103.0f);
  #pragma acc update self(m.hist)
  for (int k = 0; k < 10; k++) CHECK(m.hist[k] == 300);
  #pragma acc exit data delete(m)
  PRESENT(&m, sizeof m, 0);
  if (errors == 0) printf("struct array members ok\n");
  return errors != 0;
}
