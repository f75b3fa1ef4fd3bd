// copyout on data, parallel, kernels and serial constructs: results come back, data absent after.
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
  const int n = 2500;
  long *a = malloc(n * sizeof(long)), *b = malloc(n * sizeof(long));
  #pragma acc data copyout(a[0:n])
  {
    PRESENT(a, n * sizeof(long), 1);
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = (long)i * i;
  }
  PRESENT(a, n * sizeof(long), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == (long)i * i);
  #pragma acc parallel loop copyout(b[0:n]) copyin(a[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] + 1;
  for (int i = 0; i < n; i++) CHECK(b[i] == (long)i * i + 1);
  #pragma acc kernels copyout(b[0:n])
  for (int i = 0; i < n; i++) b[i] = -i;
  for (int i = 0; i < n; i++) CHECK(b[i] == -i);
  long last = 0;
  #pragma acc serial copyout(last)
  last = 123456789L;
  CHECK(last == 123456789L);
  free(a); free(b);
  if (errors == 0) printf("copyout ok\n");
  return errors != 0;
}
