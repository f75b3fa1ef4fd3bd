// Data regions opened and closed repeatedly in host loops, with alternating arrays.
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
  const int n = 512;
  int *bufs[3];
  for (int k = 0; k < 3; k++) { bufs[k] = malloc(n * sizeof(int)); for (int i = 0; i < n; i++) bufs[k][i] = k; }
  for (int it = 0; it < 30; it++) {
    int *p = bufs[it % 3];
    #pragma acc data copy(p[0:n])
    {
      #pragma acc parallel loop present(p[0:n])
      for (int i = 0; i < n; i++) p[i] += 3;
    }
    PRESENT(p, n * sizeof(int), 0);
  }
  for (int k = 0; k < 3; k++) for (int i = 0; i < n; i++) CHECK(bufs[k][i] == k + 30);
  for (int it = 0; it < 10; it++) {
    #pragma acc enter data copyin(bufs[0][0:n])
  }
  for (int it = 0; it < 9; it++) {
    #pragma acc exit data delete(bufs[0][0:n])
  }
  PRESENT(bufs[0], n * sizeof(int), 1);
  #pragma acc exit data delete(bufs[0][0:n])
  PRESENT(bufs[0], n * sizeof(int), 0);
  for (int k = 0; k < 3; k++) free(bufs[k]);
  if (errors == 0) printf("data regions in loops ok\n");
  return errors != 0;
}
