// acc_copyout copies device results back and removes the data; with two references it only decrements.
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
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  acc_copyin(a, n * sizeof(int));
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 2 + 1;
  acc_copyout(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * i + 1);
  acc_copyin(a, n * sizeof(int));
  acc_copyin(a, n * sizeof(int));
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] -= 1;
  acc_copyout(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 1);            /* one reference left */
  acc_copyout(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * i);
  acc_create(a, n * sizeof(int));
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = 42;
  acc_copyout(a, n * sizeof(int));
  for (int i = 0; i < n; i++) CHECK(a[i] == 42);
  free(a);
  if (errors == 0) printf("acc_copyout ok\n");
  return errors != 0;
}
