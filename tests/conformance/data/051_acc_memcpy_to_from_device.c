// acc_memcpy_to_device / acc_memcpy_from_device with present data (via acc_deviceptr) and acc_malloc memory.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  const int n = 2048;
  long *h = malloc(n * sizeof(long)), *back = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) h[i] = (long)i * i - 1000;
  long *d = acc_malloc(n * sizeof(long));
  acc_memcpy_to_device(d, h, n * sizeof(long));
  memset(back, 0, n * sizeof(long));
  acc_memcpy_from_device(back, d, n * sizeof(long));
  CHECK(memcmp(back, h, n * sizeof(long)) == 0);
  acc_memcpy_to_device(d + 10, h, 5 * sizeof(long));       /* partial, at an offset */
  acc_memcpy_from_device(back, d + 8, 8 * sizeof(long));
  CHECK(back[0] == h[8] && back[1] == h[9] && back[2] == h[0] && back[6] == h[4] && back[7] == h[15]);
  acc_memcpy_to_device(d, h, 0);                              /* zero bytes: nothing */
  acc_free(d);
  int *a = malloc(100 * sizeof(int));
  for (int i = 0; i < 100; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:100])
  int *da = acc_deviceptr(a);
  int patch[10];
  for (int k = 0; k < 10; k++) patch[k] = -k;
  acc_memcpy_to_device(da + 50, patch, sizeof patch);
  #pragma acc parallel loop present(a[0:100])
  for (int i = 0; i < 100; i++) a[i] *= 2;
  int got[100];
  acc_memcpy_from_device(got, da, sizeof got);
  for (int i = 0; i < 100; i++) CHECK(got[i] == 2 * ((i >= 50 && i < 60) ? -(i - 50) : i));
  #pragma acc exit data delete(a[0:100])
  free(h); free(back); free(a);
  if (errors == 0) printf("acc_memcpy_to/from_device ok\n");
  return errors != 0;
}
