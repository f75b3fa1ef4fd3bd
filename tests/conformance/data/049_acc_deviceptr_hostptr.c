// acc_deviceptr / acc_hostptr: round trips for base and interior addresses; NULL for absent data.
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
  const int n = 500;
  double *a = malloc(n * sizeof(double));
  if (TRACKED) CHECK(acc_deviceptr(a) == NULL);
  CHECK(acc_hostptr(NULL) == NULL);
  #pragma acc enter data create(a[0:n])
  double *d = acc_deviceptr(a);
  CHECK(d != NULL);
  CHECK(acc_hostptr(d) == a);
  CHECK(acc_deviceptr(a + 100) == d + 100);          /* interior addresses map linearly */
  CHECK(acc_hostptr(d + 499) == a + 499);
  #pragma acc parallel loop deviceptr(d)
  for (int i = 0; i < n; i++) d[i] = i * 0.25;
  #pragma acc exit data copyout(a[0:n])
  if (TRACKED) CHECK(acc_deviceptr(a) == NULL);
  for (int i = 0; i < n; i++) CHECK(a[i] == i * 0.25);
  free(a);
  if (errors == 0) printf("acc_deviceptr/acc_hostptr ok\n");
  return errors != 0;
}
