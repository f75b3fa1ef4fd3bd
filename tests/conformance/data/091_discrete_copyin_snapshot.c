// expect: discrete
// copyin takes a snapshot: later host writes are not seen by the device without update.
// (gcc 12 validates this file by compiling it; its shared-memory host fallback cannot observe this.)
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

int main(void) {
  const int n = 100;
  int *a = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  for (int i = 0; i < n; i++) a[i] = -1;               /* host only */
  #pragma acc parallel loop present(a[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = a[i];
  for (int i = 0; i < n; i++) CHECK(out[i] == i);      /* the device still has the snapshot */
  #pragma acc update device(a[0:n])
  #pragma acc parallel loop present(a[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = a[i];
  for (int i = 0; i < n; i++) CHECK(out[i] == -1);
  #pragma acc exit data delete(a[0:n])
  free(a); free(out);
  if (errors == 0) printf("discrete copyin snapshot ok\n");
  return errors != 0;
}
