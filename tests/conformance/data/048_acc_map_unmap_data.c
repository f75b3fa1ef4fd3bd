// acc_map_data / acc_unmap_data: host data mapped onto acc_malloc memory is present; unmapping removes it.
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
  int *h = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  int *d = acc_malloc(n * sizeof(int));
  acc_memcpy_to_device(d, h, n * sizeof(int));
  acc_map_data(h, d, n * sizeof(int));
  PRESENT(h, n * sizeof(int), 1);
  if (TRACKED) CHECK(acc_deviceptr(h) == d);
  if (TRACKED) CHECK(acc_hostptr(d) == h);
  #pragma acc parallel loop present(h[0:n])
  for (int i = 0; i < n; i++) h[i] += 5;
  #pragma acc update self(h[0:n])
  for (int i = 0; i < n; i++) CHECK(h[i] == i + 5);
  #pragma acc enter data copyin(h[0:n])          /* already present: count only */
  #pragma acc exit data delete(h[0:n])
  PRESENT(h, n * sizeof(int), 1);
  acc_unmap_data(h);
  PRESENT(h, n * sizeof(int), 0);
  int *back = malloc(n * sizeof(int));
  acc_memcpy_from_device(back, d, n * sizeof(int));  /* device memory still valid after unmap */
  if (TRACKED)                                       /* the gcc shim's acc_map_data is a no-op */
    for (int i = 0; i < n; i++) CHECK(back[i] == i + 5);
  acc_free(d);
  free(h); free(back);
  if (errors == 0) printf("acc_map_data/acc_unmap_data ok\n");
  return errors != 0;
}
