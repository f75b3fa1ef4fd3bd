// The shutdown directive (with device_type and if): present data is released; init again to continue.
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
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) t = acc_device_default;
  acc_init(t);
  t = acc_get_device_type();
  const int n = 100;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  PRESENT(a, n * sizeof(int), 1);
  #pragma acc shutdown if(0)
  PRESENT(a, n * sizeof(int), 1);
  #pragma acc shutdown
  PRESENT(a, n * sizeof(int), 0);
  acc_init(t);
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 1);
  #pragma acc shutdown device_type(host) if(t == acc_device_host)
  if (t == acc_device_host) acc_init(t);
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * (i + 1));
  free(a);
  if (errors == 0) printf("shutdown directive ok\n");
  return errors != 0;
}
