// acc_attach / acc_detach on struct pointer members after acc_copyin of struct and data.
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

typedef struct { int n; float *x; float *y; } pair;

int main(void) {
  pair p = {500, malloc(500 * sizeof(float)), malloc(500 * sizeof(float))};
  for (int i = 0; i < p.n; i++) { p.x[i] = i; p.y[i] = 0; }
  float *hx = p.x;
  acc_copyin(&p, sizeof p);
  acc_copyin(p.x, p.n * sizeof(float));
  acc_create(p.y, p.n * sizeof(float));
  acc_attach((void **)&p.x);
  acc_attach((void **)&p.y);
  #pragma acc parallel loop present(p)
  for (int i = 0; i < p.n; i++) p.y[i] = p.x[i] * 2 + 1;
  acc_detach((void **)&p.x);
  acc_detach((void **)&p.y);
  CHECK(p.x == hx);
  acc_copyout(p.y, p.n * sizeof(float));
  acc_delete(p.x, p.n * sizeof(float));
  acc_delete(&p, sizeof p);
  PRESENT(&p, sizeof p, 0);
  for (int i = 0; i < p.n; i++) CHECK(p.y[i] == 2.0f * i + 1);
  free(p.x); free(p.y);
  if (errors == 0) printf("acc_attach/acc_detach ok\n");
  return errors != 0;
}
