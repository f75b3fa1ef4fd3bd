// detach on exit data (and with finalize): the host struct keeps its host pointer afterwards.
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

typedef struct { double *v; int len; } span;

int main(void) {
  span s = {malloc(600 * sizeof(double)), 600};
  double *orig = s.v;
  for (int i = 0; i < s.len; i++) s.v[i] = i;
  #pragma acc enter data copyin(s, s.v[0:s.len])
  #pragma acc enter data attach(s.v)
  #pragma acc parallel loop present(s)
  for (int i = 0; i < s.len; i++) s.v[i] = s.v[i] * s.v[i];
  #pragma acc exit data detach(s.v)
  #pragma acc exit data detach(s.v) finalize
  CHECK(s.v == orig);                           /* host pointer value untouched */
  #pragma acc exit data copyout(s.v[0:s.len])
  #pragma acc exit data delete(s)
  PRESENT(s.v, s.len * sizeof(double), 0);
  for (int i = 0; i < s.len; i++) CHECK(s.v[i] == (double)i * i);
  free(s.v);
  if (errors == 0) printf("detach ok\n");
  return errors != 0;
}
