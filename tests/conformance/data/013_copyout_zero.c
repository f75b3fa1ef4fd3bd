// copyout(zero: ...) and create(zero: ...): regions that write every element give the same results.
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
  for (int i = 0; i < n; i++) { a[i] = -1; b[i] = -1; }
  #pragma acc parallel loop copyout(zero: a[0:n])
  for (int i = 0; i < n; i++) a[i] = i * 2;
  for (int i = 0; i < n; i++) CHECK(a[i] == i * 2);
  #pragma acc data create(zero: b[0:n]) copy(a[0:n])
  {
    PRESENT(b, n * sizeof(int), 1);
    #pragma acc parallel loop present(a[0:n], b[0:n])
    for (int i = 0; i < n; i++) { b[i] = i; a[i] += b[i]; }
  }
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i * 3);
  #pragma acc enter data create(zero: b[0:n])
  PRESENT(b, n * sizeof(int), 1);
  #pragma acc parallel loop present(b[0:n])
  for (int i = 0; i < n; i++) b[i] = 5;
  #pragma acc exit data copyout(b[0:n])
  for (int i = 0; i < n; i++) CHECK(b[i] == 5);
  free(a); free(b);
  if (errors == 0) printf("zero modifier ok\n");
  return errors != 0;
}
