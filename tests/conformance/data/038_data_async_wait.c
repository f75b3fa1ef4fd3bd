// async and wait clauses on the data construct (OpenACC 3.2) and on enter/exit data.
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
  const int n = 2000;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  #pragma acc enter data copyin(a[0:n]) async(1)
  #pragma acc enter data create(b[0:n]) async(2)
  #pragma acc parallel loop present(a[0:n], b[0:n]) async(3) wait(1, 2)
  for (int i = 0; i < n; i++) b[i] = a[i] + 5;
  #pragma acc exit data copyout(b[0:n]) async(3)
  #pragma acc exit data delete(a[0:n]) wait(3) async(4)
  #pragma acc wait
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == i + 5);
  #pragma acc data copy(a[0:n]) async(5)
  {
    #pragma acc parallel loop async(5)
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
  #pragma acc wait(5)
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * i);
  long s = 0;
  #pragma acc data copyin(b[0:n]) wait(5)
  {
    #pragma acc parallel loop present(b[0:n]) reduction(+:s)
    for (int i = 0; i < n; i++) s += b[i];
  }
  CHECK(s == (long)n * (n - 1) / 2 + 5L * n);
  free(a); free(b);
  if (errors == 0) printf("async on data directives ok\n");
  return errors != 0;
}
