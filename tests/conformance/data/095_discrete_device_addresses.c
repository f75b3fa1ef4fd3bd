// expect: discrete
// Device addresses differ from host addresses: acc_deviceptr(a) != a, host_data gives the other address.
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
  const int n = 64;
  int *a = malloc(n * sizeof(int));
  #pragma acc enter data create(a[0:n])
  int *d = acc_deviceptr(a);
  CHECK(d != NULL && d != a);
  int *seen = NULL;
  #pragma acc host_data use_device(a)
  {
    seen = a;
  }
  CHECK(seen == d);
  CHECK(acc_hostptr(d) == a);
  #pragma acc exit data delete(a[0:n])
  free(a);
  if (errors == 0) printf("discrete addresses ok\n");
  return errors != 0;
}
