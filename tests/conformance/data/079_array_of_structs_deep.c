// Array of structs, each with its own pointer member, deep-copied member by member.
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

typedef struct { int len; double *data; } chunk;

int main(void) {
  const int nc = 12;
  chunk *c = malloc(nc * sizeof(chunk));
  for (int k = 0; k < nc; k++) {
    c[k].len = 10 + k;
    c[k].data = malloc(c[k].len * sizeof(double));
    for (int i = 0; i < c[k].len; i++) c[k].data[i] = k + i * 0.5;
  }
  #pragma acc enter data copyin(c[0:nc])
  for (int k = 0; k < nc; k++) {
    #pragma acc enter data copyin(c[k].data[0:c[k].len])
  }
  double sums[12];
  #pragma acc parallel loop gang present(c[0:nc]) copyout(sums)
  for (int k = 0; k < nc; k++) {
    double s = 0;
    #pragma acc loop vector reduction(+:s)
    for (int i = 0; i < c[k].len; i++) s += c[k].data[i];
    sums[k] = s;
  }
  for (int k = 0; k < nc; k++) {
    #pragma acc exit data delete(c[k].data[0:c[k].len])
  }
  #pragma acc exit data delete(c[0:nc])
  for (int k = 0; k < nc; k++) {
    double w = 0;
    for (int i = 0; i < c[k].len; i++) w += k + i * 0.5;
    CHECK(sums[k] == w);
    free(c[k].data);
  }
  free(c);
  if (errors == 0) printf("array-of-structs deep copy ok\n");
  return errors != 0;
}
