// acc_wait_any returns the index of a finished queue; -1 for an empty list or only acc_async_sync.
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
  const int n = 4000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n]) async(7)
  for (int i = 0; i < n; i++) a[i] += 1;
  int queues[3] = {acc_async_sync, 7, acc_async_sync};
  int idx = acc_wait_any(3, queues);
  CHECK(idx == 1);
  CHECK(acc_async_test(7) != 0);
  int none[2] = {acc_async_sync, acc_async_sync};
  CHECK(acc_wait_any(2, none) == -1);
  CHECK(acc_wait_any(0, queues) == -1);
  #pragma acc parallel loop present(a[0:n]) async(8)
  for (int i = 0; i < n; i++) a[i] *= 2;
  #pragma acc parallel loop present(a[0:n]) async(9)
  for (int i = 0; i < 10; i++) a[i] += 0;
  int two[2] = {8, 9};
  int first = acc_wait_any(2, two);
  CHECK(first == 0 || first == 1);
  CHECK(acc_async_test(two[first]) != 0);
  int dev = acc_get_device_num(acc_get_device_type());
  int second = acc_wait_any_device(2, two, dev);
  CHECK(second == 0 || second == 1);
  acc_wait_all();
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 2 * (i + 1));
  free(a);
  if (errors == 0) printf("acc_wait_any ok\n");
  return errors != 0;
}
