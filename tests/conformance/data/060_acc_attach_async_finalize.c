// acc_attach_async, acc_detach_async, acc_detach_finalize(_async); attachment counts.
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

typedef struct { long *v; int n; } holder;

int main(void) {
  holder h = {malloc(400 * sizeof(long)), 400};
  for (int i = 0; i < h.n; i++) h.v[i] = i;
  long *orig = h.v;
  #pragma acc enter data copyin(h, h.v[0:h.n])
  acc_attach_async((void **)&h.v, 1);
  acc_attach((void **)&h.v);                    /* attachment count 3 (one from enter data) */
  acc_wait(1);
  #pragma acc parallel loop present(h)
  for (int i = 0; i < h.n; i++) h.v[i] *= 3;
  acc_detach_async((void **)&h.v, 2);
  acc_wait(2);
  #pragma acc parallel loop present(h)          /* still attached */
  for (int i = 0; i < h.n; i++) h.v[i] += 1;
  acc_detach_finalize((void **)&h.v);
  CHECK(h.v == orig);
  acc_attach((void **)&h.v);
  acc_detach_finalize_async((void **)&h.v, 3);
  acc_wait(3);
  #pragma acc exit data copyout(h.v[0:h.n])
  #pragma acc exit data delete(h)
  for (int i = 0; i < h.n; i++) CHECK(h.v[i] == 3L * i + 1);
  free(h.v);
  if (errors == 0) printf("async/finalize attach ok\n");
  return errors != 0;
}
