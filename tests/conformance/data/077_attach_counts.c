// Attachment counts: attach twice, detach once keeps the device pointer; finalize detaches at once.
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

typedef struct { int *p; } ref;

int main(void) {
  const int n = 128;
  ref r = {malloc(n * sizeof(int))};
  for (int i = 0; i < n; i++) r.p[i] = i;
  int *host_p = r.p;
  #pragma acc enter data copyin(r)
  #pragma acc enter data copyin(r.p[0:n])          /* attaches r.p: count 1 */
  #pragma acc enter data attach(r.p)                /* count 2 */
  #pragma acc exit data detach(r.p)                 /* count 1: still attached */
  #pragma acc parallel loop present(r)
  for (int i = 0; i < n; i++) r.p[i] += 100;
  acc_attach((void **)&r.p);                        /* count 2 */
  #pragma acc exit data detach(r.p) finalize        /* count 0 */
  CHECK(r.p == host_p);
  #pragma acc exit data copyout(r.p[0:n])
  #pragma acc exit data delete(r)
  for (int i = 0; i < n; i++) CHECK(r.p[i] == i + 100);
  free(r.p);
  if (errors == 0) printf("attach counts ok\n");
  return errors != 0;
}
