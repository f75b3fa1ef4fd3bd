// Deep copy of a struct with two pointer members and a nested struct holding a third.
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

typedef struct { int len; double *w; } inner;
typedef struct { int n; double *x; int *idx; inner in; } outer;

int main(void) {
  outer o;
  o.n = 400;
  o.x = malloc(o.n * sizeof(double));
  o.idx = malloc(o.n * sizeof(int));
  o.in.len = 8;
  o.in.w = malloc(o.in.len * sizeof(double));
  for (int i = 0; i < o.n; i++) { o.x[i] = i; o.idx[i] = (i * 13) % o.n; }
  for (int k = 0; k < o.in.len; k++) o.in.w[k] = 1.0 / (k + 1);
  #pragma acc enter data copyin(o)
  #pragma acc enter data copyin(o.x[0:o.n], o.idx[0:o.n], o.in.w[0:o.in.len])
  double out[400];
  #pragma acc parallel loop present(o) copyout(out)
  for (int i = 0; i < o.n; i++) out[i] = o.x[o.idx[i]] * o.in.w[i % o.in.len];
  #pragma acc parallel loop present(o)
  for (int i = 0; i < o.n; i++) o.x[i] += 1.0;
  #pragma acc exit data copyout(o.x[0:o.n]) delete(o.idx[0:o.n], o.in.w[0:o.in.len])
  #pragma acc exit data delete(o)
  for (int i = 0; i < o.n; i++) {
    CHECK(out[i] == (double)((i * 13) % 400) * (1.0 / (i % 8 + 1)));
    CHECK(o.x[i] == i + 1.0);
  }
  PRESENT(&o, sizeof o, 0);
  free(o.x); free(o.idx); free(o.in.w);
  if (errors == 0) printf("struct deep copy ok\n");
  return errors != 0;
}
