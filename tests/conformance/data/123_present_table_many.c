// Hundreds of small mappings in the present table: each found, counted and removed independently.
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

#define K 300

int main(void) {
  int *blocks[K];
  for (int k = 0; k < K; k++) {
    blocks[k] = malloc((k % 7 + 1) * sizeof(int));
    for (int i = 0; i < k % 7 + 1; i++) blocks[k][i] = k;
    acc_copyin(blocks[k], (k % 7 + 1) * sizeof(int));
  }
  for (int k = 0; k < K; k++) PRESENT(blocks[k], (k % 7 + 1) * sizeof(int), 1);
  for (int k = 0; k < K; k += 2) acc_delete(blocks[k], (k % 7 + 1) * sizeof(int));
  for (int k = 0; k < K; k++) PRESENT(blocks[k], (k % 7 + 1) * sizeof(int), k % 2);
  long total = 0;
  for (int k = 1; k < K; k += 2) {
    int *b = blocks[k], len = k % 7 + 1;
    #pragma acc parallel loop present(b[0:len]) reduction(+:total)
    for (int i = 0; i < len; i++) total += b[i];
  }
  long want = 0;
  for (int k = 1; k < K; k += 2) want += (long)k * (k % 7 + 1);
  CHECK(total == want);
  for (int k = 1; k < K; k += 2) acc_delete(blocks[k], (k % 7 + 1) * sizeof(int));
  for (int k = 0; k < K; k++) { PRESENT(blocks[k], 1, 0); free(blocks[k]); }
  if (errors == 0) printf("many present-table entries ok\n");
  return errors != 0;
}
