// Runtime API and directives on the same data: acc_copyin + exit data, enter data + acc_copyout.
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
  const int n = 800;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  acc_copyin(a, n * sizeof(int));
  #pragma acc enter data copyin(b[0:n])
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) { a[i] += b[i]; b[i] -= 1; }
  #pragma acc exit data copyout(a[0:n])
  acc_copyout(b, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) { CHECK(a[i] == 3 * i); CHECK(b[i] == 2 * i - 1); }
  #pragma acc data copy(a[0:n])
  {
    acc_update_self(a, n * sizeof(int));
    acc_copyin(a, n * sizeof(int));              /* dynamic reference inside a structured one */
  }
  PRESENT(a, n * sizeof(int), 1);
  acc_delete(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  free(a); free(b);
  if (errors == 0) printf("API/directive mix ok\n");
  return errors != 0;
}
