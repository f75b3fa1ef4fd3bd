// Data made present, then set device_num(0) on the same device: present data and queues persist.
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
  const int n = 300;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  acc_device_t t = acc_get_device_type();
  int num = acc_get_device_num(t);
  #pragma acc set device_num(0)
  if (num == 0) PRESENT(a, n * sizeof(double), 1);     /* same device: nothing changed */
  acc_set_device_num(num, t);
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 2 + 1;
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 2.0 * i + 1);
  free(a);
  if (errors == 0) printf("set with present data ok\n");
  return errors != 0;
}
