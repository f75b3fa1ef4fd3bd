// set default_async(q) directive: async without argument then goes to queue q.
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
  const int n = 1000;
  int initial = acc_get_default_async();
  #pragma acc set default_async(9)
  CHECK(acc_get_default_async() == 9);
  long *a = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n]) async
  #pragma acc parallel loop present(a[0:n]) async
  for (int i = 0; i < n; i++) a[i] = a[i] * a[i];
  #pragma acc exit data copyout(a[0:n]) async
  #pragma acc wait(9)
  for (int i = 0; i < n; i++) CHECK(a[i] == (long)i * i);
  int q = 4;
  #pragma acc set default_async(q) if(q > 0)
  CHECK(acc_get_default_async() == 4);
  #pragma acc set default_async(acc_async_default)
  CHECK(acc_get_default_async() == initial);
  free(a);
  if (errors == 0) printf("set default_async ok\n");
  return errors != 0;
}
