// acc_copyin_async, acc_create_async, acc_copyout_async, acc_delete_async and finalize _async forms.
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
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int)), *c = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; c[i] = 0; }
  acc_copyin_async(a, n * sizeof(int), 1);
  acc_create_async(b, n * sizeof(int), 1);
  acc_create_async(c, n * sizeof(int), 2);
  acc_wait(2);
  #pragma acc parallel loop present(a[0:n], b[0:n]) async(1)
  for (int i = 0; i < n; i++) b[i] = a[i] + 100;
  acc_copyout_async(b, n * sizeof(int), 1);
  acc_delete_async(a, n * sizeof(int), 1);
  acc_wait(1);
  PRESENT(a, n * sizeof(int), 0);
  PRESENT(b, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(b[i] == i + 100);
  acc_copyin(c, n * sizeof(int));
  #pragma acc parallel loop present(c[0:n]) async(3)
  for (int i = 0; i < n; i++) c[i] = 7;
  acc_copyout_finalize_async(c, n * sizeof(int), 3);
  acc_wait_all();
  PRESENT(c, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(c[i] == 7);
  acc_create(a, n * sizeof(int));
  acc_create(a, n * sizeof(int));
  acc_delete_finalize_async(a, n * sizeof(int), 4);
  acc_wait(4);
  PRESENT(a, n * sizeof(int), 0);
  free(a); free(b); free(c);
  if (errors == 0) printf("async data routines ok\n");
  return errors != 0;
}
