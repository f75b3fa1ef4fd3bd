// acc_get_property(free_memory) falls by what acc_malloc allocates and rises on acc_free; acc_property_memory stays the total.
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
/* gcc 12's host fallback reports 0 for memory properties (no accounting), so the checks on
   how free memory moves run under accjit only; gcc validates the rest. */

static size_t free_mem(void) {
  return acc_get_property(acc_get_device_num(acc_get_device_type()), acc_get_device_type(), acc_property_free_memory);
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  int dev = acc_get_device_num(t);
  size_t total = acc_get_property(dev, t, acc_property_memory);
  size_t f0 = free_mem();
  CHECK(!TRACKED || (total > 0 && f0 > 0 && f0 <= total));
  srand(42);
  size_t sizes[4];
  void *blocks[4];
  size_t sum = 0;
  for (int k = 0; k < 4; k++) {
    sizes[k] = (size_t)(1 + rand() % 64) * 4096 + (size_t)(rand() % 100);
    blocks[k] = acc_malloc(sizes[k]);
    CHECK(blocks[k] != NULL);
    sum += sizes[k];
    CHECK(!TRACKED || free_mem() == f0 - sum);
  }
  CHECK(!TRACKED || acc_get_property(dev, t, acc_property_memory) == total);
  /* The blocks are usable device memory. */
  int n = (int)(sizes[0] / sizeof(int));
  int *d = (int *)blocks[0];
  #pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < n; i++) d[i] = i * 7 % 13;
  long s = 0;
  #pragma acc parallel loop deviceptr(d) reduction(+:s)
  for (int i = 0; i < n; i++) s += d[i];
  long w = 0;
  for (int i = 0; i < n; i++) w += i * 7 % 13;
  CHECK(s == w);
  for (int k = 3; k >= 0; k--) {
    acc_free(blocks[k]);
    sum -= sizes[k];
    CHECK(!TRACKED || free_mem() == f0 - sum);
  }
  CHECK(!TRACKED || free_mem() == f0);
  /* Another device type keeps its own books. */
#ifdef ACCJIT_GCC_VALIDATION
  acc_device_t other = acc_device_host;
#else
  acc_device_t other = t == acc_device_host ? acc_device_multicore : acc_device_host;
#endif
  size_t fo = acc_get_property(0, other, acc_property_free_memory);
  void *p = acc_malloc(1 << 16);
  CHECK(!TRACKED || acc_get_property(0, other, acc_property_free_memory) == fo);
  CHECK(!TRACKED || free_mem() == f0 - (1 << 16));
  acc_free(p);
  CHECK(!TRACKED || free_mem() == f0);
  if (errors == 0) printf("free memory with acc_malloc ok\n");
  return errors != 0;
}
