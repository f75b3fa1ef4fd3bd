// A declare create global also entered dynamically: exit data does not remove the declare lifetime.
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

int counts[64];
#pragma acc declare create(counts)

int main(void) {
  PRESENT(counts, sizeof counts, 1);
  #pragma acc enter data copyin(counts)
  #pragma acc exit data delete(counts)
  PRESENT(counts, sizeof counts, 1);                 /* the declare reference remains */
  for (int i = 0; i < 64; i++) counts[i] = i;
  #pragma acc update device(counts)
  #pragma acc parallel loop present(counts)
  for (int i = 0; i < 64; i++) counts[i] *= 3;
  #pragma acc data copy(counts)
  {
    #pragma acc parallel loop present(counts)
    for (int i = 0; i < 64; i++) counts[i] += 1;
  }
  #pragma acc update self(counts)
  for (int i = 0; i < 64; i++) CHECK(counts[i] == 3 * i + 1);
  PRESENT(counts, sizeof counts, 1);
  if (errors == 0) printf("declare plus dynamic references ok\n");
  return errors != 0;
}
