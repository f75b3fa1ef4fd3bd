// acc_wait, acc_wait_all, acc_wait_async, acc_wait_all_async ordering work on several queues.
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
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int)), *c = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; c[i] = 0; }
  #pragma acc enter data copyin(a[0:n], b[0:n], c[0:n])
  #pragma acc parallel loop present(a[0:n]) async(1)
  for (int i = 0; i < n; i++) a[i] += 1;
  acc_wait_async(1, 2);                       /* queue 2 waits for queue 1 */
  #pragma acc parallel loop present(a[0:n], b[0:n]) async(2)
  for (int i = 0; i < n; i++) b[i] = a[i] * 2;
  acc_wait(2);
  #pragma acc update self(b[0:n])
  for (int i = 0; i < n; i++) CHECK(b[i] == 2 * (i + 1));
  #pragma acc parallel loop present(a[0:n]) async(3)
  for (int i = 0; i < n; i++) a[i] = -a[i];
  #pragma acc parallel loop present(b[0:n]) async(4)
  for (int i = 0; i < n; i++) b[i] += 1;
  acc_wait_all_async(5);                      /* queue 5 waits for everything before */
  #pragma acc parallel loop present(a[0:n], b[0:n], c[0:n]) async(5)
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
  acc_wait_all();
  #pragma acc exit data copyout(c[0:n]) delete(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) CHECK(c[i] == -(i + 1) + 2 * (i + 1) + 1);
  CHECK(acc_async_test_all() != 0);
  free(a); free(b); free(c);
  if (errors == 0) printf("acc_wait family ok\n");
  return errors != 0;
}
