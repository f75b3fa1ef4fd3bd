// The device address returned by acc_copyin/acc_create used directly with deviceptr.
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
  const int n = 900;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  int *da = acc_copyin(a, n * sizeof(int));
  int *db = acc_create(b, n * sizeof(int));
  #pragma acc parallel loop deviceptr(da, db)
  for (int i = 0; i < n; i++) db[i] = da[i] * 2 + 1;
  #pragma acc parallel loop present(b[0:n])       /* same memory through the present table */
  for (int i = 0; i < n; i++) b[i] += 1;
  acc_copyout(b, n * sizeof(int));
  acc_delete(a, n * sizeof(int));
  for (int i = 0; i < n; i++) CHECK(b[i] == 2 * i + 2);
  PRESENT(a, n * sizeof(int), 0);
  free(a); free(b);
  if (errors == 0) printf("acc_copyin device address ok\n");
  return errors != 0;
}
