// copy on the data construct: present inside, copied back and absent after; nested regions.
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
  const int n = 3000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  PRESENT(a, n * sizeof(double), 0);
  #pragma acc data copy(a[0:n])
  {
    PRESENT(a, n * sizeof(double), 1);
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = a[i] * 2 + 1;
    #pragma acc data copy(a[0:n])                 /* already present: only counts */
    {
      #pragma acc parallel loop
      for (int i = 0; i < n; i++) a[i] += 1;
    }
    PRESENT(a, n * sizeof(double), 1);
  }
  PRESENT(a, n * sizeof(double), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i * 1.0 + 2);
  int s = 5;
  #pragma acc data copy(s)
  {
    #pragma acc serial
    s *= 3;
  }
  CHECK(s == 15);
  free(a);
  if (errors == 0) printf("copy ok\n");
  return errors != 0;
}
