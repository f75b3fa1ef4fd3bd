// A subarray of present data is present; data clauses on it only move counts of the whole mapping.
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
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc data present(a[0:n])
  {
    #pragma acc data copy(a[200:100])
    {
      PRESENT(a + 200, 100 * sizeof(float), 1);
      #pragma acc parallel loop present(a[200:100])
      for (int i = 200; i < 300; i++) a[i] = -a[i];
    }
  }
  PRESENT(a, n * sizeof(float), 1);                  /* still the dynamic reference */
  acc_copyin(a + 500, 10 * sizeof(float));           /* present subrange: count only */
  acc_delete(a + 500, 10 * sizeof(float));
  PRESENT(a, n * sizeof(float), 1);
  #pragma acc exit data copyout(a[0:n])
  PRESENT(a, n * sizeof(float), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == ((i >= 200 && i < 300) ? -(float)i : (float)i));
  free(a);
  if (errors == 0) printf("subarray reference counts ok\n");
  return errors != 0;
}
