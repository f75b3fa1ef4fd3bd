// expect: discrete
// create(zero:) and copyout(zero:) give zero-filled device memory, whatever the host holds.
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
  const int n = 256;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = 77; b[i] = 88; }
  #pragma acc data create(zero: a[0:n]) copyout(zero: b[0:n])
  {
    #pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) { a[i] += i; b[i] += 2 * i; }
    #pragma acc update self(a[0:n])
  }
  for (int i = 0; i < n; i++) { CHECK(a[i] == i); CHECK(b[i] == 2 * i); }
  free(a); free(b);
  if (errors == 0) printf("discrete zero modifier ok\n");
  return errors != 0;
}
