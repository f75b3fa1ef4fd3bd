// acc_memcpy_d2d between the device copies of two present arrays on device 0 (host copies untouched).
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
  const int n = 600;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -1; }
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) t = acc_device_default;
  int dev = acc_get_device_num(t);
  #pragma acc enter data copyin(a[0:n], b[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 3;
  acc_memcpy_d2d(b, a, n * sizeof(int), dev, dev);
  acc_memcpy_d2d_async(b + 10, a, 5 * sizeof(int), dev, dev, 2);
  acc_wait(2);
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])
  for (int i = 0; i < n; i++) CHECK(b[i] == ((i >= 10 && i < 15) ? 3 * (i - 10) : 3 * i));
  free(a); free(b);
  if (errors == 0) printf("acc_memcpy_d2d ok\n");
  return errors != 0;
}
