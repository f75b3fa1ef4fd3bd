// host_data use_device gives the device address: it equals acc_deviceptr, and acc_hostptr maps back.
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

static void *seen = NULL;
static void remember(void *p) { seen = p; }

int main(void) {
  const int n = 256;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc data copy(a[0:n])
  {
    void *dev = acc_deviceptr(a);
    CHECK(dev != NULL);
    #pragma acc host_data use_device(a)
    {
      remember(a);
      CHECK((void *)a == dev);
      CHECK(acc_hostptr(a) != NULL);
    }
    CHECK(seen == dev);
    CHECK(acc_hostptr(dev) == (void *)a);
    int *d = seen;
    #pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] = d[i] * 3;
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == 3 * i);
  free(a);
  if (errors == 0) printf("host_data addresses ok\n");
  return errors != 0;
}
