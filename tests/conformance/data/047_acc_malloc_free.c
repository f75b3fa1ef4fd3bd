// acc_malloc / acc_free: many sizes, zero bytes, memory usable through deviceptr and memcpy.
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
  size_t sizes[] = {1, 7, 64, 4096, 1 << 20};
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    unsigned char *d = acc_malloc(sizes[k]);
    CHECK(d != NULL);
    size_t n = sizes[k];
    #pragma acc parallel loop deviceptr(d)
    for (size_t i = 0; i < n; i++) d[i] = (unsigned char)(i * 31);
    unsigned char *h = malloc(n);
    acc_memcpy_from_device(h, d, n);
    for (size_t i = 0; i < n; i++) if (h[i] != (unsigned char)(i * 31)) { errors++; printf("FAIL size %zu at %zu\n", n, i); break; }
    free(h);
    acc_free(d);
  }
  void *z = acc_malloc(0);
  acc_free(z);                 /* may be NULL; freeing it is fine */
  acc_free(NULL);
  double *blocks[20];
  for (int b = 0; b < 20; b++) blocks[b] = acc_malloc(1000 * sizeof(double));
  for (int b = 0; b < 20; b++)
    for (int c = b + 1; c < 20; c++) CHECK(blocks[b] != blocks[c]);
  for (int b = 19; b >= 0; b--) acc_free(blocks[b]);
  if (errors == 0) printf("acc_malloc/acc_free ok\n");
  return errors != 0;
}
