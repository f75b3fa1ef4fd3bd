// declare copyout(out[lo:len]) on a local pointer: kernels write the section; it is copied out and released when the function returns.
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
/* GCC 12 rejects array sections in 'declare' (the OpenACC 2.0 rule); gcc_check.py validates
   the program with the pointer itself declared (ACCJIT_GCC_VALIDATION). */

static int *histogram_rows(const int *data, int n, int bins, int **keep) {
  int *out = malloc(bins * sizeof(int));
  for (int b = 0; b < bins; b++) out[b] = -7;
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyout(out)
#else
  #pragma acc declare copyout(out[0:bins])
#endif
  PRESENT(out, bins * sizeof(int), 1);
  #pragma acc parallel loop copyin(data[0:n]) present(out[0:bins])
  for (int b = 0; b < bins; b++) {
    int c = 0;
    for (int i = 0; i < n; i++) c += data[i] % bins == b;
    out[b] = c;
  }
  *keep = out;
  return out;
}

int main(void) {
  srand(42);
  int n = 20000, bins = 37;
  int *data = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) data[i] = rand() % 1000;
  int *keep = NULL;
  int *h = histogram_rows(data, n, bins, &keep);
  CHECK(h == keep);
  PRESENT(h, bins * sizeof(int), 0);
  int total = 0;
  for (int b = 0; b < bins; b++) {
    int want = 0;
    for (int i = 0; i < n; i++) want += data[i] % bins == b;
    CHECK(h[b] == want);
    total += h[b];
  }
  CHECK(total == n);
  free(h);
  free(data);
  if (errors == 0) printf("declare copyout local section ok\n");
  return errors != 0;
}
