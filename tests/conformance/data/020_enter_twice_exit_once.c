// Dynamic reference counts: enter data twice, exit once (still present), exit again (gone).
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
  const int n = 300;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc enter data copyin(a[0:n])
  #pragma acc exit data delete(a[0:n])
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = -a[i];
  #pragma acc exit data copyout(a[0:n])
  PRESENT(a, n * sizeof(double), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == -i);
  acc_create(a, n * sizeof(double));
  #pragma acc enter data create(a[0:n])
  acc_delete(a, n * sizeof(double));
  PRESENT(a, n * sizeof(double), 1);
  acc_delete(a, n * sizeof(double));
  PRESENT(a, n * sizeof(double), 0);
  #pragma acc enter data copyin(a[0:n])
  #pragma acc data present(a[0:n])
  {
    #pragma acc exit data delete(a[0:n])      /* dynamic 0, structured 1: stays */
    PRESENT(a, n * sizeof(double), 1);
  }
  PRESENT(a, n * sizeof(double), 0);
  free(a);
  if (errors == 0) printf("enter twice / exit once ok\n");
  return errors != 0;
}
